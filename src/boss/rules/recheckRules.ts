import type { Logger } from 'pino';
import { listInWords, permissionNames } from '../../discord/permissionNames.js';
import { type Job, OPERATOR, OPERATOR_ID, requesterRefusal } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import { actionCommandPermission } from '../commandPermission.js';
import { readRequesterFacts } from '../resume/readRequesterFacts.js';
import { stopRule } from './stopRule.js';

/**
 * Checks the requester of every standing rule running now as a restart would before resuming it
 * (see `readRequesterFacts` and `requesterRefusal`: the same reading, the same decision), and
 * stops each rule whose requester left, lost the command's permission, ranks lower than when they
 * made it, or no longer reaches what it changes. A requester Discord did not answer for (an
 * outage) keeps their rule until the next re-check: nothing is stopped on a guess. Rules the
 * operator made with `massnick run` have nobody to re-check.
 *
 * @returns the rules it stopped.
 */
export async function recheckRules(context: BossContext, log: Logger): Promise<Job[]> {
	const stopped: Job[] = [];
	for (const rule of context.jobs.rules.all) {
		if (rule.result || rule.startedBy.id === OPERATOR_ID) continue;
		try {
			if (await recheckRule(context, rule, log)) stopped.push(rule);
		} catch (error) {
			log.error({ err: error, rule: rule.id }, "could not re-check the standing rule's requester; it runs on until the next re-check");
		}
	}
	log.debug({ rules: context.jobs.rules.all.length, stopped: stopped.map((rule) => rule.id) }, "standing rules' requesters re-checked");
	return stopped;
}

async function recheckRule(context: BossContext, rule: Job, log: Logger): Promise<boolean> {
	const bits = actionCommandPermission(rule.action);
	const { requester, rolePositions } = await readRequesterFacts(context, rule.action, rule.startedBy.id, bits, false);
	// The rank they made it with, as a restart compares (the record keeps it across resumes). With
	// no record (it could not be written) their rank now stands in: all but a demotion is checked.
	const record = await context.jobs.records.read(rule.id);
	const rank = record?.rank ?? (requester.kind === 'member' ? requester.rank : OPERATOR);
	const why = requesterRefusal({ startedBy: rule.startedBy, rank }, requester, rolePositions);
	if (!why) return false;
	if (why.code === 'requester-unreadable') {
		log.warn(
			{ rule: rule.id, startedBy: rule.startedBy.tag, error: why.error },
			"could not read the rule's requester from Discord: it runs on until the next re-check",
		);
		return false;
	}
	return stopRule(context, { rule, why, permission: listInWords(permissionNames(bits)), rank, now: requester }, log);
}
