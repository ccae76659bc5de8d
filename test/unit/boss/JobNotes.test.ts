import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOB_NOTES_FILE, JobNotes } from '../../../src/boss/JobNotes.js';
import { readRunFile, runRecordPath } from '../../../src/jobs/journal/runRecord.js';
import { RunRecordStore } from '../../../src/jobs/run/RunRecordStore.js';

const GUILD = '175928847299117063';
const CHANNEL = '400000000000000001';
const STATUS = { channelId: CHANNEL, messageId: '500000000000000001' };

let dataDir: string;
let logged: string[];
const logger = () =>
	pino(
		new Writable({
			write(chunk, _encoding, done) {
				logged.push(String(chunk));
				done();
			},
		}),
	);
beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), 'massnick-jobnotes-'));
	logged = [];
});
afterEach(() => {
	rmSync(dataDir, { recursive: true, force: true });
});

const path = () => join(dataDir, GUILD, JOB_NOTES_FILE);

describe("the boss's notes on its jobs", () => {
	it('keeps each change, in the order asked, in one file beside the journals readable by its owner only', async () => {
		const notes = new JobNotes({ dataDir, guildId: GUILD, logger: logger() });
		expect(await notes.read('job-1')).toEqual({});
		const changes = [
			notes.replace('job-1', { channelId: CHANNEL }),
			notes.update('job-1', { statusMessage: STATUS }),
			notes.update('job-2', { restoreChannelId: CHANNEL }),
			notes.update('job-1', { notResumed: { at: '2026-01-01T04:00:00.000Z', reason: 'alice left', next: 'Run it again.' } }),
		];
		await Promise.all(changes);
		await notes.update('job-1', { notResumed: undefined });
		expect(await notes.read('job-1')).toEqual({ channelId: CHANNEL, statusMessage: STATUS });
		expect(await new JobNotes({ dataDir, guildId: GUILD, logger: logger() }).read('job-2')).toEqual({ restoreChannelId: CHANNEL });
		expect(readdirSync(join(dataDir, GUILD))).toEqual([JOB_NOTES_FILE]);
		expect(statSync(path()).mode & 0o777).toBe(0o600);
	});

	it('starts a note afresh when a person starts the job again, and forgets the jobs whose journals were deleted', async () => {
		const notes = new JobNotes({ dataDir, guildId: GUILD, logger: logger() });
		await notes.update('job-1', { channelId: CHANNEL, statusMessage: STATUS });
		await notes.update('job-2', { channelId: CHANNEL });
		await notes.replace('job-1', { channelId: '400000000000000009' });
		expect(await notes.read('job-1')).toEqual({ channelId: '400000000000000009' });
		await notes.forget(['job-1']);
		expect(JSON.parse(readFileSync(path(), 'utf8'))).toEqual({ jobs: { 'job-2': { channelId: CHANNEL } } });
	});

	it('keeps why a standing rule stopped, lists the stopped rules newest first, and forgets it when a person makes the rule again', async () => {
		const notes = new JobNotes({ dataDir, guildId: GUILD, logger: logger() });
		const stopped = (at: string) => ({ at, title: 'Adding @Member', reason: 'alice, who started it, left', next: 'Make the rule again.' });
		await notes.replace('rule-1', { channelId: CHANNEL });
		await notes.update('rule-1', { ruleStopped: stopped('2026-01-01T04:00:00.000Z') });
		await notes.update('rule-2', { ruleStopped: stopped('2026-01-02T04:00:00.000Z') });
		await notes.update('job-3', { channelId: CHANNEL });
		const again = new JobNotes({ dataDir, guildId: GUILD, logger: logger() });
		expect(await again.stoppedRules()).toEqual([
			{ jobId: 'rule-2', stopped: stopped('2026-01-02T04:00:00.000Z') },
			{ jobId: 'rule-1', stopped: stopped('2026-01-01T04:00:00.000Z') },
		]);
		await again.replace('rule-1', { channelId: CHANNEL });
		expect((await again.stoppedRules()).map(({ jobId }) => jobId)).toEqual(['rule-2']);
		// A note missing a field of it is no stop.
		writeFileSync(path(), JSON.stringify({ jobs: { 'rule-2': { ruleStopped: { at: '2026-01-02T04:00:00.000Z', title: 'Adding @Member' } } } }));
		expect(await again.stoppedRules()).toEqual([]);
	});

	it('takes a file that is not notes for none, says so, and writes it anew; a field of the wrong type is dropped', async () => {
		const notes = new JobNotes({ dataDir, guildId: GUILD, logger: logger() });
		await notes.update('job-1', { channelId: CHANNEL });
		writeFileSync(path(), '{"jobs":');
		expect(await notes.read('job-1')).toEqual({});
		expect(logged.join('')).toContain('the boss notes file is not one');
		writeFileSync(path(), JSON.stringify({ jobs: { 'job-1': { channelId: 5, statusMessage: { channelId: CHANNEL }, restoreChannelId: CHANNEL } } }));
		expect(await notes.read('job-1')).toEqual({ restoreChannelId: CHANNEL });
	});

	it("takes over what an older massnick kept in the job's run record, once, the notes written since winning", async () => {
		const records = new RunRecordStore(dataDir, GUILD, logger());
		const notes = new JobNotes({ dataDir, guildId: GUILD, logger: logger(), oldNotes: records });
		await notes.update('job-1', { statusMessage: { ...STATUS, messageId: '500000000000000002' } });
		const rank = { kind: 'owner', userId: '300000000000000001' };
		const requester = { startedBy: { id: '300000000000000001', tag: 'alice' }, rank, startedAt: '2026-01-01T00:00:00.000Z', resumes: [] };
		writeFileSync(
			runRecordPath(dataDir, GUILD, 'job-1'),
			JSON.stringify({
				...requester,
				channelId: CHANNEL,
				statusMessage: STATUS,
				notResumed: { at: '2026-01-01T04:00:00.000Z', reason: 'alice left', next: 'Run it again.' },
				restore: { ...requester, channelId: '400000000000000002' },
			}),
		);
		expect(await notes.read('job-1')).toEqual({
			channelId: CHANNEL,
			statusMessage: { ...STATUS, messageId: '500000000000000002' },
			notResumed: { at: '2026-01-01T04:00:00.000Z', reason: 'alice left', next: 'Run it again.' },
			restoreChannelId: '400000000000000002',
		});
		expect((await readRunFile(dataDir, GUILD, 'job-1'))?.oldNotes).toBeUndefined();
		expect(await notes.read('job-1')).toMatchObject({ channelId: CHANNEL, restoreChannelId: '400000000000000002' });
	});
});
