import { describe, expect, it } from 'vitest';
import { RunExitCodes, runOutcome, type RunOutcomeInput, startFailureExitCode } from '../../../src/cli/runOutcome.js';
import { ConfigError, ErrorCodes, JobError } from '../../../src/errors.js';
import type { ProgressSnapshot } from '../../../src/jobs/Progress.js';
import { FleetStartError } from '../../../src/workers/Fleet.js';

function snapshot(counts: Partial<ProgressSnapshot> = {}): ProgressSnapshot {
	const base = { changed: 90, alreadyDone: 5, cant: 3, aboveRequester: 0, skipped: 2, left: 0, failed: 0, ...counts };
	const done = base.changed + base.alreadyDone + base.cant + base.skipped + base.left + base.failed;
	const total = counts.total ?? done;
	return {
		workers: [],
		total,
		elsewhere: 0,
		done,
		remaining: total - done,
		failedByReason: {},
		inFlight: 0,
		listingDone: true,
		rate: 0,
		elapsedMs: 12_000,
		etaMs: 0,
		...base,
	};
}

function outcome(input: Partial<RunOutcomeInput>) {
	return runOutcome({
		title: 'Renaming to “🎃 {username}”',
		mode: 'apply',
		dryRun: false,
		result: { state: 'finished', stoppedWorkers: [] },
		snapshot: snapshot(),
		...input,
	});
}

describe('runOutcome', () => {
	it('a finished job with nothing failed is done (exit 0); members it cannot reach do not make it undone', () => {
		const result = outcome({});
		expect(result.exitCode).toBe(RunExitCodes.Done);
		expect(result.undone).toBe(0);
		expect(result.lines[0]).toBe('Renaming to “🎃 {username}” · finished after 12s · 100 members');
		expect(result.lines[1]).toBe("  changed 90 · already done 5 · can't 3 · left alone 2 · left the server 0 · failed 0");
		expect(result.lines.at(-1)).toMatch(/^Done: .* 3 could not be changed/);
	});

	it('a job limited to a file of ids says how many of them are not members, under the counts', () => {
		const listedIds = 'Only the 500 user ids in “ids.txt”: 12 of them are not members of the server, so nothing is sent for them.';
		const result = outcome({ listedIds });
		expect(result.lines[2]).toBe(`  ${listedIds}`);
		expect(result.exitCode).toBe(RunExitCodes.Done);
		expect(outcome({}).lines.join('\n')).not.toContain('user ids');
	});

	it("members of other processes' workers are counted apart, and done means this process's part is done", () => {
		const result = outcome({ snapshot: snapshot({ elsewhere: 300 }) });
		expect(result.exitCode).toBe(RunExitCodes.Done);
		expect(result.lines[2]).toBe('  300 members belong to workers in other processes: theirs to change, in no count here.');
		expect(result.lines.at(-1)).toMatch(/^Done: every member of this process's workers it applies to is done\./);
		expect(outcome({}).lines.join('\n')).not.toContain('other processes');
	});

	it('failures make it not done (exit 1), with how many, why, and that the same command finishes it', () => {
		const result = outcome({ snapshot: snapshot({ failed: 12, failedByReason: { timeout: 2, 'http-502': 10 } }) });
		expect(result.exitCode).toBe(RunExitCodes.NotDone);
		expect(result.undone).toBe(12);
		expect(result.lines).toContain('  failed by reason: http-502 10, timeout 2');
		expect(result.lines.at(-1)).toBe('Not done: 12 members left to do. Run the same command again to finish it: members already done are skipped.');
	});

	it('a stopped worker makes it not done and says which token to remove', () => {
		const result = outcome({ result: { state: 'finished', stoppedWorkers: [2] }, snapshot: snapshot({ failed: 7, failedByReason: { 'worker-stopped': 7 } }) });
		expect(result.exitCode).toBe(RunExitCodes.NotDone);
		expect(result.lines.join('\n')).toMatch(/worker 2 \(token rejected by Discord\): remove it from WORKER_TOKENS/);
	});

	it('a job that failed (its listing, its journal) is not done, with the error', () => {
		const result = outcome({ result: { state: 'failed', error: new Error('the listing failed'), stoppedWorkers: [] }, snapshot: snapshot({ total: 300 }) });
		expect(result.exitCode).toBe(RunExitCodes.NotDone);
		expect(result.lines.at(-1)).toMatch(/^Failed: the listing failed\. What was done stays journaled\. Run the same command again/);
	});

	it('a cancelled job exits 3, counting what is not done and naming the signal', () => {
		const result = outcome({ result: { state: 'cancelled', stoppedWorkers: [] }, snapshot: snapshot({ total: 300 }), signal: 'SIGTERM' });
		expect(result.exitCode).toBe(RunExitCodes.Cancelled);
		expect(result.undone).toBe(200);
		expect(result.lines.at(-1)).toMatch(
			/^Cancelled by SIGTERM: 200 not done\. What was done stays journaled: run the same command again to finish it, or run massnick run restore/,
		);
	});

	it('a cancelled restore says the same command finishes the restore', () => {
		const result = outcome({ mode: 'restore', result: { state: 'cancelled', stoppedWorkers: [] }, snapshot: snapshot({ total: 300, listingDone: false }) });
		expect(result.lines.at(-1)).toMatch(/^Cancelled: 200 listed and the members not listed yet not done\. .*run the same command again to finish the restore/);
	});

	it('a dry run that counted everything is done and says nothing was sent', () => {
		const result = outcome({ dryRun: true });
		expect(result.exitCode).toBe(RunExitCodes.Done);
		expect(result.lines[0]).toMatch(/^Dry run · /);
		expect(result.lines[1]).toMatch(/^ {2}would change 90/);
		expect(result.lines.at(-1)).toBe('Dry run: nothing was sent. Run it without --dry-run to make 90 changes.');
	});
});

describe('startFailureExitCode', () => {
	const unreachable = (who: string) => new JobError(ErrorCodes.ConnectFailed, `${who} could not connect to Discord: ECONNRESET`);
	const rejected = new JobError(ErrorCodes.TokenRejected, "worker 1's token was rejected");

	it('bots that could not reach Discord are worth a retry later (exit 5)', () => {
		expect(startFailureExitCode(unreachable('the boss'))).toBe(RunExitCodes.RetryLater);
		const fleet = new FleetStartError([
			{ worker: 0, error: unreachable('worker 0') },
			{ worker: 2, error: unreachable('worker 2') },
		]);
		expect(startFailureExitCode(new AggregateError([unreachable('LISTER_TOKEN'), fleet]))).toBe(RunExitCodes.RetryLater);
	});

	it('a token, an intent, the guild or the configuration is refused (exit 4), even beside a failure that would pass', () => {
		expect(startFailureExitCode(rejected)).toBe(RunExitCodes.Refused);
		expect(startFailureExitCode(new ConfigError([{ key: 'BOSS_TOKEN', message: 'missing' }]))).toBe(RunExitCodes.Refused);
		expect(
			startFailureExitCode(
				new FleetStartError([
					{ worker: 0, error: unreachable('worker 0') },
					{ worker: 1, error: rejected },
				]),
			),
		).toBe(RunExitCodes.Refused);
		expect(startFailureExitCode(new Error('EACCES: permission denied'))).toBe(RunExitCodes.Refused);
	});
});
