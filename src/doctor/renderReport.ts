import type { BotRow, Diagnosis } from './diagnose.js';
import type { Finding } from './Finding.js';
import { formatTable } from './formatTable.js';
import type { GuildFacts } from './GuildFacts.js';

const COLUMNS: ReadonlyArray<[keyof BotRow, string]> = [
	['bot', 'bot'],
	['application', 'application'],
	['token', 'token'],
	['inGuild', 'in guild'],
	['permissions', 'permissions'],
	['commands', 'commands'],
	['highestRole', 'highest role'],
	['cannotRename', "can't rename"],
	['membersIntent', 'members intent'],
];

export interface ReportInput {
	readonly guildId: string;
	readonly guild: GuildFacts | null;
	readonly diagnosis: Diagnosis;
}

/**
 * The doctor's report: a header, one row per bot, the server's room for more bots, whether
 * /lockdown can run, the problems that stop a job and the warnings (each with its fix on the next
 * line), every bot's invite link (the boss's also with Manage Guild, for /lockdown), and the
 * verdict. Never a token: bots are named by their place (`boss`, `worker 0`).
 */
export function renderReport({ guildId, guild, diagnosis }: ReportInput): string[] {
	const { rows, findings } = diagnosis;
	const lines: string[] = [];
	lines.push(
		guild
			? `massnick doctor: guild ${guild.name} (${guild.id}), ${guild.memberCount.toLocaleString('en-US')} members`
			: `massnick doctor: guild ${guildId} (none of the bots could read it)`,
		'',
		...formatTable([COLUMNS.map(([, title]) => title), ...rows.map((row) => COLUMNS.map(([key]) => row[key] ?? '-'))]),
	);
	if (diagnosis.room) lines.push('', ...diagnosis.room.lines);
	if (diagnosis.commands) lines.push('', ...diagnosis.commands);
	if (diagnosis.lockdown) lines.push('', diagnosis.lockdown.line);

	const fatal = findings.filter((finding) => finding.severity === 'fatal');
	const warnings = findings.filter((finding) => finding.severity === 'warning');
	if (fatal.length > 0) lines.push('', 'Problems that stop a job:', ...fatal.flatMap((finding) => renderFinding('✗', finding)));
	if (warnings.length > 0) lines.push('', 'Warnings:', ...warnings.flatMap((finding) => renderFinding('!', finding)));

	lines.push(
		'',
		"Invite links (each with exactly the permissions that bot needs; the workers' with Manage Nicknames and what invite.actions in config/massnick.json chooses):",
	);
	const links = rows.flatMap((row) => [
		[row.bot, row.invite ?? "(unknown until Discord accepts this bot's token)"],
		...(row.lockdownInvite ? [[`${row.bot} with Manage Guild (needed only for /lockdown)`, row.lockdownInvite]] : []),
	]);
	const labels = formatTable(links);
	lines.push(...labels.map((line) => `  ${line}`));

	lines.push(
		'',
		fatal.length === 0
			? `✓ Nothing stops a job${warnings.length > 0 ? ` (${warnings.length} warning${warnings.length === 1 ? '' : 's'} above)` : ''}.`
			: `✗ ${fatal.length} problem${fatal.length === 1 ? ' stops' : 's stop'} a job: fix ${fatal.length === 1 ? 'it' : 'them'}, then run npm run doctor again.`,
	);
	return lines;
}

function renderFinding(mark: string, finding: Finding): string[] {
	return [`${mark} ${finding.message}`, `  fix: ${finding.fix}`];
}
