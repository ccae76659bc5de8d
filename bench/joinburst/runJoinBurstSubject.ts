import { join } from 'node:path';
import type { SandboxRequest } from '@massnick/discord-sandbox';
import { describeChange } from '../ChangeRoute.js';
import { describeInvocation, type Invocation, invokeJob } from '../invokeJob.js';
import { busyShare, readMachineCpu } from '../machineCpu.js';
import { runLogDir } from '../raid/startRaidGuild.js';
import { readEventLoopDelay } from '../readEventLoopDelay.js';
import type { SandboxProcess } from '../SandboxProcess.js';
import { startMassnickProcess } from '../startMassnickProcess.js';
import { workerIndexOf } from '../../src/workers/partition.js';
import { collectTimeouts, isTimeout } from './collectTimeouts.js';
import { JOIN_BURST_RULE } from './joinBurstRule.js';
import { failedJoinBurstRun, type JoinBurstRunResult, joinBurstRunResult } from './JoinBurstRunResult.js';
import type { JoinBurstScenario, JoinBurstSubject } from './JoinBurstScenario.js';
import { joinLatencies } from './joinLatencies.js';
import { startJoinBurstGuild } from './startJoinBurstGuild.js';
import { waitForRuleFollowing } from './waitForRuleFollowing.js';

export interface JoinBurstContext {
	readonly scenario: JoinBurstScenario;
	/** A fresh directory for this run's logs and the bots' data. */
	readonly workDir: string;
	/** discord.js's REST offset, 50 ms scaled with the windows, for every subject alike. */
	readonly offsetMs: number;
	readonly progress: (line: string) => void;
}

/** How long the boss may take to answer a command with its preview, and the rule to follow joins. */
const PREVIEW_TIMEOUT_MS = 60_000;
/** Discord's seconds waited after the last joiner's timeout, for a second timeout of anyone: two rate-limit windows. */
const SETTLE_DISCORD_MS = 20_000;

/**
 * One subject on a fresh guild: massnick started with the subject's worker tokens, the owner
 * makes the standing rule (its preview's Start pressed), /status says it follows joins, then the
 * burst joins; measured until every joiner is timed out, never projected. Times come from the
 * sandbox's records: each joiner's `joined_at`, and its answer to their timeout in the request log.
 */
export async function runJoinBurstSubject(subject: JoinBurstSubject, context: JoinBurstContext): Promise<JoinBurstRunResult> {
	const { scenario } = context;
	const base = { label: subject.label, workers: subject.workers, joiners: scenario.joiners, backlogStepSeconds: scenario.backlogStepSeconds };
	const logDir = runLogDir(context.workDir, `massnick-${subject.workers}`);
	let sandbox: SandboxProcess | undefined;
	const invocation: Invocation = {};
	try {
		const guild = await startJoinBurstGuild(scenario, logDir);
		sandbox = guild.sandbox;
		const { info } = sandbox;
		const eventLoopFile = join(logDir, 'massnick-event-loop.jsonl');
		const massnick = await startMassnickProcess({
			sandbox,
			workers: subject.workers,
			offsetMs: context.offsetMs,
			workDir: join(logDir, 'bot'),
			logDir,
			readyTimeoutMs: 60_000,
			eventLoopFile,
		});
		try {
			const botIds = new Set([sandbox.bossId, ...sandbox.workerIds.slice(0, subject.workers)]);
			const { lastSeq } = await sandbox.control.requests(0, 1);
			context.progress(`${subject.label}: making the rule`);
			await invokeJob(sandbox, JOIN_BURST_RULE, PREVIEW_TIMEOUT_MS, invocation);
			await waitForRuleFollowing(sandbox, massnick.child, PREVIEW_TIMEOUT_MS);

			context.progress(`${subject.label}: ${scenario.joiners.toLocaleString('en')} joining over ${scenario.burstSeconds} Discord seconds`);
			const cpuBefore = await readMachineCpu();
			const { ids } = await sandbox.control.stageJoinBurst(info.guildId, {
				count: scenario.joiners,
				windowMs: Math.round((scenario.burstSeconds * 1000) / scenario.timeScale),
				accountAgeMs: scenario.accountAgeHours * 3_600_000,
				seed: 0,
			});
			const joiners = new Set(ids);
			const collected = await collectTimeouts(sandbox, {
				after: lastSeq,
				joiners,
				botIds,
				child: massnick.child,
				deadline: Date.now() + scenario.subjectTimeoutSeconds * 1000,
				settleMs: SETTLE_DISCORD_MS / scenario.timeScale,
			});
			const cpuAfter = await readMachineCpu();
			const readAt = Date.now();
			const members = await sandbox.control.members(info.guildId);

			const joins = new Map<string, number>();
			let timedOutInGuild = 0;
			const outsideInGuild: string[] = [];
			for (const member of members) {
				const until = member.communicationDisabledUntil === undefined ? null : Date.parse(member.communicationDisabledUntil);
				if (joiners.has(member.id)) {
					joins.set(member.id, Date.parse(member.joinedAt));
					if (until !== null && until > readAt) timedOutInGuild++;
				} else if (until !== (guild.timeoutsBefore.get(member.id) ?? null)) outsideInGuild.push(member.id);
			}
			if (joins.size < joiners.size) throw sandbox.failure(`shows ${joins.size} of the ${joiners.size} joiners as members`);
			const joinTimes = [...joins.values()];
			const own = collected.requests.filter((request) => request.botUserId !== null && botIds.has(request.botUserId));
			const timeouts = own.filter((request) => isTimeout(request, botIds));
			const latencies = joinLatencies(
				joins,
				timeouts.map((request) => ({ targetId: request.targetId!, at: request.at })),
			);
			const lastTimeoutAt = timeouts.reduce((latest, request) => Math.max(latest, request.at), 0);
			const result = joinBurstRunResult({
				label: subject.label,
				workers: subject.workers,
				timeScale: scenario.timeScale,
				backlogStepSeconds: scenario.backlogStepSeconds,
				joiners: joiners.size,
				latencies,
				timedOutInGuild,
				outsideInGuild,
				firstJoinAt: Math.min(...joinTimes),
				lastJoinAt: Math.max(...joinTimes),
				joinersPerWorker: joinersPerWorker(ids, subject.workers),
				...countRequests(own.filter((request) => request.at <= lastTimeoutAt)),
				rateLimited429: own.filter((request) => request.status === 429).length,
				machineBusy: busyShare(cpuBefore, cpuAfter),
				eventLoopDelay: await readEventLoopDelay(eventLoopFile, Math.min(...joinTimes), lastTimeoutAt),
			});
			if (!collected.complete && result.status === 'measured')
				return { ...result, status: 'failed', reason: `not every joiner was timed out within ${scenario.subjectTimeoutSeconds} s` };
			return result;
		} finally {
			await massnick.child.stop(3000);
		}
	} catch (error) {
		const answers = sandbox ? await describeInvocation(sandbox, 'masstimeout', invocation).catch(() => '') : '';
		return failedJoinBurstRun(base, `${(error as Error).message}${answers ? `\n${answers}` : ''}`);
	} finally {
		await sandbox?.stop();
	}
}

function countRequests(requests: readonly SandboxRequest[]): { requests: number; requestsByRoute: Record<string, number> } {
	const requestsByRoute: Record<string, number> = {};
	for (const request of requests) {
		const key = describeChange(request);
		requestsByRoute[key] = (requestsByRoute[key] ?? 0) + 1;
	}
	return { requests: requests.length, requestsByRoute };
}

/** How many of `ids` each of `workers` owns. */
function joinersPerWorker(ids: readonly string[], workers: number): number[] {
	const counts = new Array<number>(workers).fill(0);
	for (const id of ids) counts[workerIndexOf(id, workers)]!++;
	return counts;
}
