import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Attachment } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchIdsFile } from '../../../../src/boss/commands/fetchIdsFile.js';
import { ErrorCodes, JobError } from '../../../../src/errors.js';

/** A local server standing for the CDN: each path answers its own way. */
let server: Server;
let origin: string;
let requests: string[];

beforeAll(async () => {
	requests = [];
	server = createServer((request, response) => {
		requests.push(request.url ?? '');
		if (request.url?.startsWith('/ok')) {
			response.writeHead(200, { 'Content-Type': 'text/plain' });
			response.end('175928847299117063\n');
		} else if (request.url?.startsWith('/gone')) {
			response.writeHead(404);
			response.end('This content is no longer available.');
		} else if (request.url?.startsWith('/huge')) {
			// Says it is small, sends more than the bound.
			response.writeHead(200);
			const chunk = Buffer.alloc(1024 * 1024, 0x31);
			for (let i = 0; i < 5; i++) response.write(chunk);
			response.end();
		} else if (request.url?.startsWith('/slow')) {
			// Never answers: the time limit ends it.
		}
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	server.close();
});

const attachment = (path: string, size = 19, name = 'ids.txt'): Attachment =>
	({ id: '1300000000000000001', name, size, url: `${origin}${path}` }) as Attachment;
const apiUrl = (): string => `${origin}/api`;

async function refusal(promise: Promise<unknown>): Promise<string> {
	const error = await promise.then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(error).toBeInstanceOf(JobError);
	expect((error as JobError).code).toBe(ErrorCodes.InvalidArgument);
	return (error as Error).message;
}

describe('fetchIdsFile', () => {
	it('downloads the file from the local Discord it is configured with', async () => {
		const file = await fetchIdsFile(attachment('/ok?ex=1'), { apiUrl: apiUrl() });
		expect(file.name).toBe('ids.txt');
		expect(Buffer.from(file.bytes).toString()).toBe('175928847299117063\n');
	});

	it('refuses a file over 4 MB from its size, without a request', async () => {
		const before = requests.length;
		expect(await refusal(fetchIdsFile(attachment('/ok', 5 * 1024 * 1024, 'big.csv'), { apiUrl: apiUrl() }))).toMatch(
			/^ids_file: big\.csv is 5\.0 MB; a file of ids may be at most 4 MB/,
		);
		expect(requests.length).toBe(before);
	});

	it('reads no more than 4 MB whatever the server sends', async () => {
		expect(await refusal(fetchIdsFile(attachment('/huge'), { apiUrl: apiUrl() }))).toContain('is larger than 4 MB once downloaded');
	});

	it("fetches nothing that is not Discord's CDN or the configured local Discord", async () => {
		const before = requests.length;
		expect(await refusal(fetchIdsFile(attachment('/ok'), { apiUrl: undefined }))).toBe(
			`ids_file: ids.txt was not served by Discord's CDN (${origin}), so it is not read: attach the file again.`,
		);
		const plain = { ...attachment('/ok'), url: 'http://cdn.discordapp.com/ephemeral-attachments/1/2/ids.txt' } as Attachment;
		expect(await refusal(fetchIdsFile(plain, { apiUrl: apiUrl() }))).toContain('was not served by Discord');
		const lookalike = { ...attachment('/ok'), url: 'https://cdn.discordapp.com.example.com/ephemeral-attachments/1/2/ids.txt' } as Attachment;
		expect(await refusal(fetchIdsFile(lookalike, { apiUrl: apiUrl() }))).toContain('was not served by Discord');
		expect(requests.length).toBe(before);
	});

	it('says what to do when the download fails or takes too long', async () => {
		expect(await refusal(fetchIdsFile(attachment('/gone'), { apiUrl: apiUrl() }))).toBe(
			'ids_file: ids.txt could not be downloaded from Discord (HTTP 404: its link expired). Attach it again in a moment, or run the job from the machine with massnick run … --ids-file <path>.',
		);
		expect(await refusal(fetchIdsFile(attachment('/slow'), { apiUrl: apiUrl(), timeoutMs: 200 }))).toContain(
			'could not be downloaded from Discord within 0.2 s',
		);
	});

	it('shows the file name with letters, digits and a few signs only', async () => {
		expect(await refusal(fetchIdsFile(attachment('/ok', 5 * 1024 * 1024, '**@everyone**`x`.txt'), { apiUrl: apiUrl() }))).toMatch(
			/^ids_file: ___everyone___x_\.txt is 5\.0 MB/,
		);
	});
});
