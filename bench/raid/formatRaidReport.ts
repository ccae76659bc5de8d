import { formatTable } from '../formatTable.js';
import { operationSpec, RAID_OPERATIONS } from './raidOperations.js';
import type { RaidRunResult } from './RaidRunResult.js';
import type { RaidScenario } from './RaidScenario.js';

const COLUMNS = [
	'step',
	'subject',
	'tokens',
	'raid accounts done',
	'to the last',
	'first to last',
	'on Discord',
	'× massnick',
	'accounts/s',
	'requests',
	'429s',
	'others touched',
] as const;

/** A projected figure's mark, explained under the table. */
const PROJECTED = '*';

/** The raid table, what its columns mean and why a run failed, as printed on stdout. */
export function formatRaidReport(scenario: RaidScenario, results: readonly RaidRunResult[]): string {
	const scale = scenario.timeScale;
	const count = (value: number): string => value.toLocaleString('en');
	const rows = results.map((result) => {
		const massnick = results.find((other) => other.operation === result.operation && other.subject === 'massnick');
		const mark = result.projected ? PROJECTED : '';
		const about = result.projected ? '≈' : '';
		const ratio =
			result.subject === 'massnick' || result.timeMs === null || !massnick?.timeMs || massnick.status === 'failed'
				? '—'
				: `×${(result.timeMs / massnick.timeMs).toFixed(0)}`;
		const rateMs = result.projected ? result.ranMs : result.toLastMs;
		return [
			stepLabel(result),
			result.label,
			String(result.tokens),
			result.done === result.accounts ? count(result.done) : `${count(result.done)} of ${count(result.accounts)}${mark}`,
			result.timeMs === null ? '—' : `${about}${seconds(result.timeMs)}${mark}`,
			result.projected || result.firstToLastMs === null ? '—' : seconds(result.firstToLastMs),
			result.timeMs === null ? '—' : `${about}${humanTime(result.timeMs * scale)}${mark}`,
			ratio,
			rateMs ? (result.done / (rateMs / 1000)).toFixed(0) : '—',
			`${count(result.requests)}${mark}`,
			`${count(result.rateLimited429)}${mark}`,
			result.status === 'failed' && result.toLastMs === null ? '—' : count(result.outsideRaidTouched),
		];
	});
	const lines = [
		`Raid cleanup: ${count(scenario.raidAccounts)} raid accounts among ${count(scenario.members)} members (${count(scenario.realJoiners)} real people joined in the same 10 minutes), each subject on a fresh guild of its own, time scale ${scale}.`,
		'',
		formatTable(COLUMNS, rows),
		'',
		`massnick: ${scenario.workers} workers; the owner runs ${commandOf(operationSpec('ban').massnickJob)} and then ${commandOf(operationSpec('unban').massnickJob)} on one guild, ${commandOf(operationSpec('timeout').massnickJob)} on another, pressing Start on each preview (and typing the count a ban asks for).`,
		`Baselines: one token (the first worker's), given the raid's ${count(scenario.raidAccounts)} ids: one request per account (Create Guild Ban, Modify Guild Member, Remove Guild Ban) through discord.js's REST queue, no bulk ban; the unban starts from every raid account banned, as /restore does.`,
		`to the last: from Start on the preview, or the count typed (a baseline: its first request), to the sandbox answering the last ban, timeout or unban; massnick lists the accounts made after created_after first. first to last: from the first answered change to the last. on Discord: to the last × ${scale}, on Discord's windows (the sandbox's answer times are multiplied too, so it errs long). × massnick: the baseline's time ÷ massnick's.`,
		`${PROJECTED} stopped at its ${scenario.baselineSeconds}-s deadline: the time is projected from the rate it kept over those ${scenario.baselineSeconds} s to every raid account, not measured to the end; its requests and 429s are those it sent by then.`,
		'raid accounts done: banned (and gone), timed out, unbanned at the end, as the guild shows it (members and timeouts from the sandbox, the ban list through GET /guilds/{id}/bans); others touched: anyone else whose membership, ban or timeout changed, or whom a request of the subject named.',
	];
	for (const result of results)
		if (result.reason !== null) lines.push(`${stepLabel(result)}, ${result.label}: ${result.status}: ${result.reason.split('\n')[0]}`);
	return `${lines.join('\n')}\n`;
}

function stepLabel(result: RaidRunResult): string {
	return RAID_OPERATIONS.find((spec) => spec.operation === result.operation)?.label ?? result.operation;
}

function commandOf(job: { command: string; options: Readonly<Record<string, unknown>> }): string {
	return [`/${job.command}`, ...Object.entries(job.options).map(([name, value]) => `${name}:${String(value)}`)].join(' ');
}

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

/** A time people read at a glance: seconds under 100, minutes under 100, then hours. */
export function humanTime(ms: number): string {
	const s = ms / 1000;
	if (s < 100) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
	if (s < 6000) return `${(s / 60).toFixed(s < 600 ? 1 : 0)} min`;
	return `${(s / 3600).toFixed(1)} h`;
}
