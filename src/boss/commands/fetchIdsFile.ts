import type { Attachment } from 'discord.js';
import { FILTER_OPTIONS, fileLabel, type IdsFile } from '../../actions/index.js';
import { ErrorCodes, JobError } from '../../errors.js';
import { checkIdFileSize, MAX_ID_FILE_BYTES } from '../../jobs/index.js';

/** The longest the download of a file of ids may take: 4 MB from Discord's CDN takes well under a second. */
export const IDS_FILE_TIMEOUT_MS = 15_000;

/** Where Discord serves attachments: the CDN, and the media proxy of `proxy_url`. */
const DISCORD_CDN_HOSTS: readonly string[] = ['cdn.discordapp.com', 'media.discordapp.net'];

export interface FetchIdsFileOptions {
	/** `DISCORD_API_URL`: a local Discord (the sandbox) serves its attachments from its own host. */
	readonly apiUrl: string | undefined;
	readonly timeoutMs?: number | undefined;
}

/**
 * Downloads the file a member attached as `ids_file`, from the signed URL Discord gave in the
 * interaction: its `size` is checked first (a file over the bound is refused without a byte
 * fetched), the download is bounded in time and in bytes whatever the server says, and only
 * Discord's CDN (or, for a local Discord, its own host) is ever asked, so an interaction cannot
 * make the bot fetch anything else.
 *
 * @see https://discord.com/developers/docs/reference#signed-attachment-cdn-urls
 * @throws {JobError} `INVALID_ARGUMENT`, naming the option and the file, with what to do.
 */
export async function fetchIdsFile(attachment: Attachment, { apiUrl, timeoutMs = IDS_FILE_TIMEOUT_MS }: FetchIdsFileOptions): Promise<IdsFile> {
	const named = `${FILTER_OPTIONS.userIds}: ${fileLabel(attachment.name)}`;
	const refuse = (what: string, cause?: unknown): never => {
		throw new JobError(ErrorCodes.InvalidArgument, `${named} ${what}`, { cause, context: { option: FILTER_OPTIONS.userIds, attachmentId: attachment.id } });
	};
	try {
		checkIdFileSize(attachment.size);
	} catch (error) {
		refuse((error as Error).message, error);
	}
	const url = new URL(attachment.url);
	const local = apiUrl === undefined ? undefined : new URL(apiUrl).origin;
	if (!(url.protocol === 'https:' && DISCORD_CDN_HOSTS.includes(url.hostname)) && url.origin !== local) {
		refuse(`was not served by Discord's CDN (${url.origin}), so it is not read: attach the file again.`);
	}
	const again = 'Attach it again in a moment, or run the job from the machine with massnick run … --ids-file <path>.';
	let response: Response;
	try {
		response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
	} catch (error) {
		const timedOut = (error as Error).name === 'TimeoutError';
		return refuse(`could not be downloaded from Discord${timedOut ? ` within ${timeoutMs / 1000} s` : ` (${(error as Error).message})`}. ${again}`, error);
	}
	if (!response.ok) {
		await response.body?.cancel();
		refuse(`could not be downloaded from Discord (HTTP ${response.status}${response.status === 404 ? ': its link expired' : ''}). ${again}`);
	}
	const bytes = await readBounded(response, MAX_ID_FILE_BYTES).catch((error: unknown) =>
		refuse(`could not be downloaded from Discord (${(error as Error).message}). ${again}`, error),
	);
	if (bytes === undefined)
		return refuse(
			`is larger than ${MAX_ID_FILE_BYTES / 1024 / 1024} MB once downloaded; a file of ids may be at most that. Keep only the id column, or split the file and run one job per part.`,
		);
	return { name: attachment.name, bytes };
}

/** The body, or `undefined` as soon as it passes `limit` bytes (the rest is not read). */
async function readBounded(response: Response, limit: number): Promise<Uint8Array | undefined> {
	const chunks: Uint8Array[] = [];
	let length = 0;
	const reader = response.body?.getReader();
	if (!reader) return new Uint8Array();
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		length += value.byteLength;
		if (length > limit) {
			await reader.cancel();
			return undefined;
		}
		chunks.push(value);
	}
	return Buffer.concat(chunks);
}
