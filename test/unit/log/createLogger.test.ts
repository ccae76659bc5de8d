import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/createLogger.js';

const TOKEN = 'MTAwMDAwMDAwMDAwMDAwMDAy.GwOrk1.worker-one-secret-bbbbbbbbbbbbbbbbb';
const BOSS = 'MTAwMDAwMDAwMDAwMDAwMDAx.GbOsS1.boss-secret-aaaaaaaaaaaaaaaaaaaaaa';

/** A logger writing into an array, as the tests read logs from an injected stream. */
function capture(level: 'info' | 'debug' = 'info') {
	const lines: string[] = [];
	const destination = { write: (line: string) => void lines.push(line) } as unknown as NodeJS.WritableStream;
	const logger = createLogger({ level, secrets: [TOKEN, BOSS], destination });
	const text = () => lines.join('');
	const records = () =>
		lines
			.join('')
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, unknown>);
	return { logger, text, records };
}

describe('createLogger', () => {
	it('writes JSON lines with the data first and the message second', () => {
		const { logger, records } = capture();
		logger.info({ worker: 3, renamed: 10 }, 'slice done');
		expect(records()).toEqual([expect.objectContaining({ level: 30, worker: 3, renamed: 10, msg: 'slice done' })]);
	});

	it('a token in the message is redacted', () => {
		const { logger, text } = capture();
		logger.warn(`logging in with ${TOKEN}`);
		expect(text()).not.toContain(TOKEN);
		expect(text()).toContain('logging in with [redacted]');
	});

	it('a token inside an Error logged as { err } is redacted, in the message and the stack', () => {
		const { logger, text, records } = capture();
		logger.error({ err: new Error(`401 for token ${TOKEN}`) }, 'x');
		expect(text()).not.toContain(TOKEN);
		const err = records()[0]!.err as { message: string; stack: string };
		expect(err.message).toBe('401 for token [redacted]');
		expect(err.stack).toContain('[redacted]');
	});

	it('a token nested deep in a field, or in a field name, is redacted', () => {
		const { logger, text } = capture();
		logger.info({ request: { headers: { authorization: `Bot ${BOSS}` }, list: [TOKEN] }, [TOKEN]: 1 }, 'request');
		expect(text()).not.toContain(TOKEN);
		expect(text()).not.toContain(BOSS);
		expect(text().match(/\[redacted\]/g)).toHaveLength(3);
	});

	it('child loggers carry their component and are redacted too', () => {
		const { logger, records, text } = capture();
		logger.child({ worker: 3 }).info({ token: TOKEN }, 'ready');
		expect(records()[0]).toMatchObject({ worker: 3, token: '[redacted]', msg: 'ready' });
		expect(text()).not.toContain(TOKEN);
	});

	it('the level filters lower levels', () => {
		const { logger, records } = capture('info');
		logger.debug('hidden');
		logger.info('shown');
		expect(records().map((record) => record.msg)).toEqual(['shown']);
	});

	it('text without secrets is written unchanged', () => {
		const { logger, records } = capture();
		logger.info({ name: '🎃 Alice' }, 'renamed');
		expect(records()[0]).toMatchObject({ name: '🎃 Alice', msg: 'renamed' });
	});
});

describe('createLogger formats', () => {
	function lines(format: 'json' | 'pretty' | 'auto', isTTY?: boolean) {
		const written: string[] = [];
		const destination = { write: (line: string) => void written.push(line), isTTY } as unknown as NodeJS.WritableStream;
		const logger = createLogger({ level: 'info', secrets: [TOKEN], destination, format });
		logger.info({ worker: 2, token: TOKEN }, 'slice done');
		return written.join('');
	}

	it('pretty writes one readable line, not JSON, with the message and the fields, and still no token', () => {
		const text = lines('pretty');
		expect(() => JSON.parse(text)).toThrow();
		expect(text).toMatch(/INFO.*slice done/);
		expect(text).toContain('worker: 2');
		expect(text).not.toContain(TOKEN);
		expect(text).toContain('[redacted]');
	});

	it('auto is pretty on a terminal and JSON elsewhere', () => {
		expect(JSON.parse(lines('auto', false))).toMatchObject({ msg: 'slice done', worker: 2 });
		expect(lines('auto', true)).toMatch(/INFO.*slice done/);
	});
});
