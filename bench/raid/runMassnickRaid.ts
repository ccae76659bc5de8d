import { join } from 'node:path';
import { describeInvocation, type Invocation, invokeJob } from '../invokeJob.js';
import { startMassnickProcess } from '../startMassnickProcess.js';
import type { GuildSnapshot } from './GuildSnapshot.js';
import { journalEnds, waitForJournalEnd } from './journalEnds.js';
import { measureRaidStep } from './measureRaidStep.js';
import type { RaidContext } from './RaidContext.js';
import type { RaidOperationSpec } from './raidOperations.js';
import { failedRaidRun, type RaidRunResult } from './RaidRunResult.js';
import { runLogDir, startRaidGuild } from './startRaidGuild.js';

/** How long the boss may take to answer a command with its preview (it counts the guild first). */
const PREVIEW_TIMEOUT_MS = 60_000;

/** How the report names massnick's run of a step. */
export function massnickLabel(spec: RaidOperationSpec): string {
	return `massnick /${spec.massnickJob.command}`;
}

/**
 * massnick's steps on one fresh raid guild, one after another on one process, as a moderator
 * would: `/massban` then `/restore` (its undo), or `/masstimeout`. Each command is typed by the
 * owner, Start pressed on its preview and the count typed when it asks (invokeJob.ts); a step is
 * done when massnick's journal says so, and is
 * measured to its end, never projected. A step after a failed one is not run.
 */
export async function runMassnickRaid(specs: readonly RaidOperationSpec[], context: RaidContext): Promise<RaidRunResult[]> {
	const { scenario } = context;
	const base = (spec: RaidOperationSpec) => ({
		operation: spec.operation,
		subject: 'massnick' as const,
		label: massnickLabel(spec),
		tokens: scenario.workers,
		accounts: scenario.raidAccounts,
	});
	const logDir = runLogDir(context.workDir, `massnick-${specs.map((spec) => spec.operation).join('-')}`);
	const results: RaidRunResult[] = [];
	const guild = await startRaidGuild(scenario, logDir);
	const { sandbox } = guild;
	try {
		const massnick = await startMassnickProcess({
			sandbox,
			workers: scenario.workers,
			offsetMs: context.offsetMs,
			workDir: join(logDir, 'bot'),
			logDir,
			readyTimeoutMs: 60_000,
		});
		const journals = join(massnick.dataDir, sandbox.info.guildId);
		const botIds = new Set([sandbox.bossId, ...sandbox.workerIds.slice(0, scenario.workers)]);
		let before: GuildSnapshot | undefined;
		try {
			for (const spec of specs) {
				const label = massnickLabel(spec);
				if (results.some((result) => result.status === 'failed')) {
					results.push(failedRaidRun(base(spec), 'not run: the step before it failed'));
					continue;
				}
				context.progress(`${label}: running`);
				const invocation: Invocation = {};
				try {
					const already = await journalEnds(journals);
					const { result, after } = await measureRaidStep(guild, {
						spec,
						subject: 'massnick',
						label,
						tokens: scenario.workers,
						botIds,
						change: spec.massnickChange,
						offsetMs: context.offsetMs,
						...(before === undefined ? {} : { before }),
						run: async () => {
							const startedAt = await invokeJob(sandbox, spec.massnickJob, PREVIEW_TIMEOUT_MS, invocation);
							await waitForJournalEnd(journals, spec.massnickEndState, already, {
								child: massnick.child,
								timeoutMs: scenario.massnickTimeoutSeconds * 1000,
							});
							return { startedAt, stoppedAt: null };
						},
					});
					results.push(result);
					before = after;
				} catch (error) {
					const answers = await describeInvocation(sandbox, spec.massnickJob.command, invocation).catch(() => '');
					results.push(failedRaidRun(base(spec), `${(error as Error).message}${answers ? `\n${answers}` : ''}`));
				}
			}
		} finally {
			await massnick.child.stop(3000);
		}
	} finally {
		await sandbox.stop();
	}
	return results;
}
