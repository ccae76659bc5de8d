import type { MemberRecord } from '../../discord/MemberRecord.js';
import { ErrorCodes, JobError } from '../../errors.js';
import type { Job } from '../Job.js';
import type { MassAction } from '../MassAction.js';
import { MAX_RULES, type RunSlot } from '../run/RunSlot.js';

/** What of a member `action` sets, for telling two rules that fight (see `MassAction.field`). */
export function fieldOf(action: MassAction): string {
	return action.field ?? action.type;
}

/**
 * The guild's standing rules (jobs with `keep`): the one still sweeping, and those past their
 * sweep that follow joins and changes. They are let in one field at a time, at most
 * {@link MAX_RULES}; member events reach the sweep and every rule, each taking the members its
 * workers own.
 */
export class StandingRules {
	constructor(readonly slot: RunSlot) {}

	/** Every standing rule, the one still sweeping first. */
	get all(): Job[] {
		const sweeping = this.slot.current?.job;
		const following = this.slot.rules.map((run) => run.job);
		return sweeping?.keep && !sweeping.result ? [sweeping, ...following] : following;
	}

	/**
	 * Refuses a new rule of `action` when a rule sets the same field (they would undo each other's
	 * work), naming that rule, or when the guild holds as many rules as it may; and a dry run,
	 * which counts once.
	 *
	 * @throws {JobError} `RULE_CONFLICT`, `INVALID_ARGUMENT`
	 */
	admit(action: MassAction, dryRun: boolean): void {
		if (dryRun) {
			throw new JobError(
				ErrorCodes.InvalidArgument,
				'A dry run counts once and changes nothing, so it cannot keep applying: run it without dry_run to make it a standing rule.',
			);
		}
		const rules = this.all;
		const field = fieldOf(action);
		const fighting = rules.find((rule) => fieldOf(rule.action) === field);
		if (fighting) {
			throw new JobError(
				ErrorCodes.RuleConflict,
				`A standing rule already sets that: **${fighting.title}** (${fighting.id}, started by ${fighting.startedBy.tag}). Two rules on the same ${describeField(field)} would undo each other's changes; end it first with /cancel rule:${fighting.id}, then make the new one.`,
				{ context: { rule: fighting.id, field } },
			);
		}
		if (rules.length >= MAX_RULES) {
			throw new JobError(
				ErrorCodes.RuleConflict,
				`The server holds ${MAX_RULES} standing rules already, as many as massnick keeps (each plans every joiner): end one with /cancel rule:<id> first.`,
				{ context: { rules: rules.length } },
			);
		}
	}

	/**
	 * The rule `which` names: its id, or its title (`Adding @Member`, any case), or, with none
	 * given, the only rule there is.
	 *
	 * @throws {JobError} `NO_RULE` naming the rules there are
	 */
	find(which: string | undefined): Job {
		const rules = this.all;
		const wanted = which?.trim().toLowerCase();
		const found =
			wanted === undefined
				? rules.length === 1
					? rules
					: []
				: rules.filter((rule) => rule.id.toLowerCase() === wanted || rule.title.toLowerCase() === wanted);
		if (found.length === 1) return found[0]!;
		const known = rules.length === 0 ? 'No standing rule runs.' : `The standing rules: ${rules.map((rule) => `**${rule.title}** (${rule.id})`).join(', ')}.`;
		const what =
			wanted === undefined
				? 'Say which rule to end'
				: found.length > 1
					? `More than one rule is called “${which}”: give its id`
					: `No standing rule is called “${which}”`;
		throw new JobError(ErrorCodes.NoRule, `${what}. ${known}`, { context: { which: which ?? null } });
	}

	/**
	 * Refuses to undo the journal of a rule that still runs: it would go on changing joiners.
	 *
	 * @throws {JobError} `JOB_RUNNING`, saying how to end it first
	 */
	assertEnded(jobId: string): void {
		const rule = this.all.find((job) => job.id === jobId);
		if (!rule) return;
		throw new JobError(
			ErrorCodes.JobRunning,
			`**${rule.title}** is a standing rule that still runs: end it with /cancel rule:${rule.id} first, then /restore undoes what it did.`,
			{
				context: { rule: rule.id },
			},
		);
	}

	/**
	 * Ends standing rule `rule` for good with `error` (see `JobRun.endForGood`): it fails, and no
	 * restart resumes it. Returns `false` when it is no rule running here, or was ending already.
	 */
	end(rule: Job, error: Error): boolean {
		const sweeping = this.slot.current;
		const run = sweeping?.job === rule && rule.keep ? sweeping : this.slot.rules.find((candidate) => candidate.job === rule);
		return run?.endForGood(error) ?? false;
	}

	/** A member joined: the sweep and every rule past its sweep take them (each its own members). */
	memberJoined(member: MemberRecord): void {
		this.slot.current?.job.memberJoined(member);
		for (const run of this.slot.rules) run.job.memberJoined(member);
	}

	/** A member's data changed: rules whose action follows changes plan them again. */
	memberChanged(member: MemberRecord): void {
		this.slot.current?.job.memberChanged(member);
		for (const run of this.slot.rules) run.job.memberChanged(member);
	}

	/** A member left: nothing more is sent for them, and each rule's journal may let their entry go (see `RuleJournal`). */
	memberLeft(memberId: string): void {
		const { current } = this.slot;
		current?.job.memberLeft(memberId);
		current?.rule?.memberLeft(memberId);
		for (const run of this.slot.rules) {
			run.job.memberLeft(memberId);
			run.rule?.memberLeft(memberId);
		}
	}
}

function describeField(field: string): string {
	if (field === 'nick') return 'nickname';
	if (field.startsWith('role:')) return 'role';
	return field;
}
