import { cpus } from 'node:os';
import { percentile } from '../percentile.js';
import { readEventLoopDelay } from '../readEventLoopDelay.js';
import { rssSlope, shareOfCeiling } from './figures.js';
import type { GuildLife } from './GuildLife.js';
import {
	afterLeaving,
	answered,
	between,
	byWrongWorker,
	isRename,
	isRoleGiven,
	memberNotFoundNotOfLeavers,
	onTheWireBound,
	rateLimitedOutsideShared,
	renamedTwice,
	stoppedForFullDisk,
	stoppedOnRole,
	unjournaled,
	type WorkerOfRequest,
} from './invariants.js';
import type { SoakMarks } from './phases.js';
import { countOf, type SoakSchedule, scheduleRecord } from './schedule.js';
import type { Soak } from './Soak.js';
import type { SoakInvariants } from './verdict.js';

/** Each worker's request, by the process that ran then: its workers are its WORKER_TOKENS, in order. */
function workerOfRequest(soak: Soak): WorkerOfRequest {
	const { bots, info, sandbox } = soak;
	return (request) => {
		const incarnation = bots.incarnations.find(
			(candidate) => request.at >= candidate.startedAt - 60_000 && request.at <= (candidate.endedAt ?? Number.POSITIVE_INFINITY),
		);
		if (!incarnation) return undefined;
		const index = incarnation.tokens.findIndex((token) => sandbox.workerIds[info.workerTokens.indexOf(token)] === request.botUserId);
		return index === -1 ? undefined : { index, count: incarnation.tokens.length };
	};
}

/** The results file's body: the invariants measured from what the sandbox saw, and the figures beside them. */
export async function measureSoak(soak: Soak, schedule: SoakSchedule, life: GuildLife, marks: SoakMarks) {
	const { options, record, bots } = soak;
	const { workers, maxInFlight, timeScale } = options;
	await soak.log.read();
	const requests = soak.log.requests.filter((request) => request.seq > marks.jobStart);
	const changes = requests.filter((request) => isRename(request) && request.targetId);
	const renames = changes.filter((request) => request.seq <= marks.renameEnd);
	const given = requests.filter((request) => isRoleGiven(request) && request.targetId);
	// A member who renamed themselves after the job renamed them is renamed again by a rerun, as the
	// done marker says: not a duplicate. What may go out twice is what was on the wire at each kill
	// and at each latency spike past the time-out (Discord may have applied a request the client gave
	// up on), at the revoked token, and at the full disk's stop.
	const twice = renamedTwice(renames, life.ownNick).length;
	const stops = record.kills.length + countOf(schedule, 'latency past rest.timeoutMs') + (record.diskFull ? 1 : 0) + 1;
	// What is in flight when a change is refused for every member alike: one request a worker at most
	// (Discord's role event stops the job first), and never more than every worker's maxInFlight.
	const inFlightBound = onTheWireBound(1, workers, maxInFlight);
	const deletedAt = record.jobRoleDeleted?.seq ?? Number.POSITIVE_INFINITY;
	// Every 404 by phase. On a member's change one is expected only for a member who left (a request
	// on the wire as they go) and for the /massrole's role once deleted; any other is a bug. (Other
	// routes' 404s, such as an interaction answered too late under latency, are counted, not held.)
	const notFound = answered(requests, 404);
	const notFound404s = {
		rename: between(notFound, marks.jobStart, marks.renameEnd).length,
		restore: between(notFound, marks.renameEnd, marks.massroleStart).length,
		massrole: between(notFound, marks.massroleStart, deletedAt).length,
		afterRoleDeleted: between(notFound, deletedAt).length,
	};
	const forbidden = answered(requests, 403);
	const roleName = record.jobRole?.name ?? '';
	const invariants: SoakInvariants = {
		notRenamedAtEnd: marks.notRenamed,
		originalsLost: marks.notRestored,
		changedTwice: twice,
		changedTwiceBound: onTheWireBound(stops, workers, maxInFlight),
		changesByWrongWorker: byWrongWorker([...changes, ...given], workerOfRequest(soak)).length,
		changesAfterLeaving: afterLeaving(changes, life.left).length,
		forbiddenAfterRoleMoves: record.roleMoves.map((move) => between(forbidden, move.seq, move.back).length),
		forbiddenBound: inFlightBound,
		roleMoveHolders: record.roleMoves.map((move) => move.holders),
		notFound404s,
		memberNotFound404sNotOfLeavers: memberNotFoundNotOfLeavers(between(requests, marks.jobStart, deletedAt), life.left).length,
		rateLimited429sOutsideShared: rateLimitedOutsideShared(requests).length,
		diskFull: {
			stoppedWithMessage: stoppedForFullDisk(record.diskFull, soak.guildDir),
			message: record.diskFull?.message ?? null,
			// No change without its journal line: each member renamed has an original, written before the PATCH.
			unjournaledChanges: unjournaled(renames, marks.renameJournals.originals).length,
			finishedAfterFreeing: marks.renameEndState === 'finished',
		},
		massroleRoleChanges: {
			stoppedAtMoveWithMessage: stoppedOnRole(record.jobRoleMoved, roleName, "is now at or above the workers' highest role"),
			moveMessage: record.jobRoleMoved?.message ?? null,
			forbiddenAfterMove: record.jobRoleMoved ? between(forbidden, record.jobRoleMoved.seq, record.jobRoleMoved.back).length : null,
			stoppedAtDeleteWithMessage: stoppedOnRole(record.jobRoleDeleted, roleName, 'was deleted while the job ran, so it stopped'),
			deleteMessage: record.jobRoleDeleted?.message ?? null,
			notFoundAfterDelete: notFound404s.afterRoleDeleted,
			bound: inFlightBound,
		},
	};

	// Share of the ceiling over the fault-free stretches of the first job: seconds with no fault active.
	// 10 per 10 s per token, scaled; but discord.js holds each client to 50 requests a second of its
	// own (@discordjs/rest's globalRequestsPerSecond, not scaled), which past time scale 50 is lower.
	const ceilingPerSecond = workers * Math.min((10 * timeScale) / 10, 50);
	const shortFrom = bots.incarnations.find((incarnation) => incarnation.tokens.length < workers)?.startedAt ?? Number.POSITIVE_INFINITY;
	const quiet = shareOfCeiling(renames, { from: marks.jobStartedAt, to: marks.renamedAt, shortFrom }, record.faultTimes, ceilingPerSecond);
	// Memory: the longest incarnation's RSS after its first 30 s, by least squares.
	const { longest, mbPerMinute: slope } = rssSlope(bots.incarnations);
	const loop = await Promise.all(
		bots.incarnations.map((incarnation) => readEventLoopDelay(incarnation.probe, incarnation.startedAt, incarnation.endedAt ?? Date.now())),
	);
	const p99s = loop.flatMap((delay) => (delay ? [delay.p99Ms] : []));
	const discordHours = ((marks.massroleEndedAt - marks.jobStartedAt) * timeScale) / 3_600_000;
	const journals = marks.renameJournals;

	return {
		benchmark: 'massnick npm run soak (issue #18)',
		date: new Date().toISOString(),
		seed: options.seed,
		machine: { cpus: cpus().length, node: process.version },
		setup: { members: options.members, workers, timeScale, maxInFlight, ceilingPerSecond },
		schedule: scheduleRecord(schedule),
		durationSeconds: Math.round((Date.now() - soak.started) / 1000),
		discordHours: Math.round(discordHours * 10) / 10,
		invariants,
		figures: {
			changes: changes.length,
			renames: renames.length,
			roleGiven: given.length,
			kills: record.kills.length,
			notResumed: record.notResumed,
			restoreReruns: marks.restoreReruns,
			joined: life.joined.size,
			left: life.left.size,
			renamedThemselves: life.ownNick.size,
			diskFullLimitKiB: record.diskFull?.limitKiB ?? null,
			peakRssMb: Math.round(Math.max(...bots.incarnations.map((incarnation) => incarnation.peakMb))),
			rssSlopeMbPerMinute: slope === null ? null : Math.round(slope * 100) / 100,
			rssSlopeOver: { incarnation: bots.incarnations.indexOf(longest), minutes: Math.round((longest.endedAt! - longest.startedAt) / 600) / 100 },
			eventLoopP99Ms: p99s.length === 0 ? null : Math.max(...p99s),
			eventLoopP99MedianMs: percentile(
				[...p99s].sort((a, b) => a - b),
				50,
			),
			journalBytesPerChangedMember: journals.originals.size === 0 ? null : Math.round(journals.bytes / journals.originals.size),
			shareOfCeilingFaultFree: quiet.share === null ? null : Math.round(quiet.share * 10_000) / 10_000,
			faultFreeSeconds: quiet.seconds,
		},
	};
}
