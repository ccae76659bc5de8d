import type { Logger } from 'pino';
import { permissionNames } from '../../discord/permissionNames.js';
import { MassnickError } from '../../errors.js';
import type { Job, RefuseIt, ResumeDecision, ResumeFacts, ResumeSubject } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import { type FleetFields, logUnresumed } from './logUnresumed.js';
import { notResumed } from './notResumed.js';
import { type ReadFacts, readResumeFacts } from './readResumeFacts.js';
import { couldNotStart, resumeJob } from './resumeJob.js';
import { resumeRestore } from './resumeRestore.js';
import { wordNextStep, wordRefusal } from './wordRefusal.js';

/** `decideResume` over what the disk, the settings and this process say, with what the guild says now. */
export type DecideResume = (facts?: ReadonlyMap<string, ResumeFacts>) => ResumeDecision[];

/**
 * The boss's side of resuming after a restart (the decisions are `decideResume`'s): reads the
 * guild for each job that may go on (its action, its requester now), decides again, and acts:
 * starts what goes on, tells the channel of what may not why and who can continue it, and logs
 * what is left as it is.
 *
 * @returns the job or restore resumed, or `undefined`.
 */
export async function resumeAfterRestart(context: BossContext, decide: DecideResume, log: Logger, fleet: FleetFields): Promise<Job | undefined> {
	let decisions = decide();
	const read = new Map<string, ReadFacts>();
	for (const decision of decisions) {
		if (decision.kind === 'check') read.set(decision.journal.header.jobId, await readResumeFacts(context, decision));
	}
	if (read.size > 0) decisions = decide(new Map([...read].map(([jobId, { facts }]) => [jobId, facts])));
	logUnresumed(decisions, log, fleet);
	for (const decision of decisions) {
		if (decision.kind === 'refuse') await tellRefused(context, decision, facts(decision, read), logOf(decision, log));
	}
	const resuming = decisions.filter((decision) => decision.kind === 'resume' && facts(decision, read)?.action);
	const [first, ...rules] = resuming;
	const resumed = first && (await resumeOne(context, first, read, log));
	// The standing rules after it: each follows joins at once, and catches up at low priority, its
	// listing waiting while a sweep runs (see `KeepOptions.catchUp`).
	for (const rule of rules) await resumeOne(context, rule, read, log);
	return resumed;
}

async function resumeOne(context: BossContext, decision: ResumeDecision, read: ReadonlyMap<string, ReadFacts>, log: Logger): Promise<Job | undefined> {
	const found = facts(decision, read);
	if (decision.kind !== 'resume' || !found?.action) return undefined;
	const jobLog = logOf(decision, log);
	const start = { action: found.action, may: found.may, log: jobLog };
	const job = decision.what === 'job' ? await resumeJob(context, { ...start, decision }) : await resumeRestore(context, { ...start, decision });
	if (!(job instanceof MassnickError)) return job;
	const refused = { ...decision, kind: 'refuse', whatToDo: 'run-again' } as const;
	await tell(context, refused, found, { reason: couldNotStart(job), next: wordNextStep(refused, permissionName(found)) }, jobLog);
	return undefined;
}

function facts(decision: ResumeDecision, read: ReadonlyMap<string, ReadFacts>): ReadFacts | undefined {
	return 'journal' in decision && decision.journal ? read.get(decision.journal.header.jobId) : undefined;
}

function logOf(decision: ResumeDecision, log: Logger): Logger {
	return 'journal' in decision && decision.journal ? log.child({ job: decision.journal.header.jobId }) : log;
}

function tellRefused(context: BossContext, decision: RefuseIt, facts: ReadFacts | undefined, log: Logger): Promise<undefined> {
	const permission = permissionName(facts);
	return tell(context, decision, facts, { reason: wordRefusal(decision, permission), next: wordNextStep(decision, permission) }, log);
}

function tell(
	context: BossContext,
	subject: ResumeSubject,
	facts: ReadFacts | undefined,
	words: { reason: string; next: string },
	log: Logger,
): Promise<undefined> {
	const title = subject.what === 'restore' ? (facts?.action?.words.undoing ?? subject.journal.header.title) : subject.journal.header.title;
	return notResumed(context, { subject, title, ...words, log, at: new Date() });
}

/** The command's permission by name: who can continue a job that did not go on. */
function permissionName(facts: ReadFacts | undefined): string {
	return permissionNames(facts?.permission ?? 0n).join(', ');
}
