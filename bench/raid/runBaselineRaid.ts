import { banRaid } from './banRaid.js';
import { type GuildSnapshot, readGuildSnapshot } from './GuildSnapshot.js';
import { measureRaidStep } from './measureRaidStep.js';
import { type BaselineStyle, runBaseline } from './raidBaselines.js';
import type { RaidContext } from './RaidContext.js';
import { type RaidOperationSpec, TIMEOUT_MS } from './raidOperations.js';
import { failedRaidRun, type RaidRunResult } from './RaidRunResult.js';
import { runLogDir, startRaidGuild } from './startRaidGuild.js';

/** How the report names each baseline. */
export const BASELINE_LABELS: Readonly<Record<BaselineStyle, string>> = {
	zeppelin: 'Zeppelin-style: one at a time',
	yuudachi: 'Yuudachi-style: all queued at once',
};

/**
 * A baseline's steps on one fresh raid guild, on the sandbox's first worker token, given the raid
 * accounts' ids (a moderator pastes them into Zeppelin's `!massban`): the ban then the unban, or
 * the timeout. Each runs until its deadline at most; an unban starts from every raid account
 * banned, as massnick's /restore does (the accounts its ban did not reach are bulk-banned first,
 * not measured).
 */
export async function runBaselineRaid(style: BaselineStyle, specs: readonly RaidOperationSpec[], context: RaidContext): Promise<RaidRunResult[]> {
	const { scenario } = context;
	const label = BASELINE_LABELS[style];
	const logDir = runLogDir(context.workDir, `${style}-${specs.map((spec) => spec.operation).join('-')}`);
	const results: RaidRunResult[] = [];
	const guild = await startRaidGuild(scenario, logDir);
	const { sandbox } = guild;
	const { info } = sandbox;
	try {
		let before: GuildSnapshot | undefined;
		for (const spec of specs) {
			context.progress(`${label}, ${spec.label}: running (at most ${scenario.baselineSeconds} s)`);
			try {
				if (spec.operation === 'unban') {
					const found = before ?? (await readGuildSnapshot(sandbox, context.offsetMs));
					await banRaid(
						guild,
						guild.raidIds.filter((id) => !found.banned.has(id)),
						context.offsetMs,
					);
					before = undefined;
				}
				const { result, after } = await measureRaidStep(guild, {
					spec,
					subject: style,
					label,
					tokens: 1,
					botIds: new Set([sandbox.workerIds[0]!]),
					change: spec.baselineChange,
					offsetMs: context.offsetMs,
					...(before === undefined ? {} : { before }),
					run: async () => {
						const startedAt = Date.now();
						const runMs = scenario.baselineSeconds * 1000;
						const outcome = await runBaseline(style, {
							apiUrl: info.apiUrl,
							guildId: info.guildId,
							token: info.workerTokens[0]!,
							ids: guild.raidIds,
							operation: spec.operation,
							offsetMs: context.offsetMs,
							timeoutUntil: new Date(startedAt + TIMEOUT_MS).toISOString(),
							deadline: performance.now() + runMs,
						});
						return { startedAt, stoppedAt: outcome.notSent > 0 ? startedAt + runMs : null };
					},
				});
				results.push(result);
				before = after;
			} catch (error) {
				results.push(failedRaidRun({ operation: spec.operation, subject: style, label, tokens: 1, accounts: scenario.raidAccounts }, (error as Error).message));
				before = undefined;
			}
		}
	} finally {
		await sandbox.stop();
	}
	return results;
}
