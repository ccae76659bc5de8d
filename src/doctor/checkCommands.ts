import type { PermissionsBitField } from 'discord.js';
import type { CommandPermission } from '../actions/index.js';
import { listInWords, permissionNames } from '../discord/permissionNames.js';
import { WORKER_PERMISSIONS } from '../discord/requiredPermissions.js';
import { ErrorCodes } from '../errors.js';
import type { Finding } from './Finding.js';

/** A worker in the guild, with its guild permissions and its highest role's name. */
export interface WorkerPermissions {
	readonly label: string;
	readonly permissions: Readonly<PermissionsBitField>;
	readonly roleName: string;
}

export interface CheckCommandsInput {
	readonly commands: readonly CommandPermission[];
	/** `invite.actions`: the commands the operator chose the workers' invite links to ask for. */
	readonly chosen: readonly string[];
	/** The workers in the guild; none when the guild could not be read. */
	readonly workers: readonly WorkerPermissions[];
}

/**
 * What the workers' invite links ask for: Manage Nicknames, which every job needs, and the
 * permission of each command `invite.actions` chooses (a name that is no command adds nothing).
 */
export function workerInvitePermissions(commands: readonly CommandPermission[], chosen: readonly string[]): bigint {
	let bits = WORKER_PERMISSIONS;
	for (const command of commands) if (chosen.includes(command.command)) bits |= command.permission;
	return bits;
}

/**
 * The report's lines on which command needs which permission of the workers, and whether they
 * hold it: a command whose permission some worker lacks is refused before anything runs, so it
 * says so, and what to do. Manage Nicknames is every job's and checked with each bot; a command
 * that needs more is the operator's choice, so lacking it is a warning only when `invite.actions`
 * chose it. A name in `invite.actions` that is no command is a warning too.
 */
export function checkCommands({ commands, chosen, workers }: CheckCommandsInput): { lines: string[]; findings: Finding[] } {
	const findings: Finding[] = [];
	const byPermission = new Map<bigint, string[]>();
	for (const { command, permission } of commands) byPermission.set(permission, [...(byPermission.get(permission) ?? []), command]);
	const lines = ['What each command needs of the workers (a command whose permission a worker lacks is refused before anything runs):'];
	for (const [permission, names] of byPermission) {
		const slashed = names.map((name) => `/${name}`);
		const needs = listInWords(permissionNames(permission));
		const only = permission === WORKER_PERMISSIONS ? '' : ` (needed only for ${listInWords(slashed)})`;
		const lacking = workers.filter((worker) => !worker.permissions.has(permission));
		let state: string;
		if (workers.length === 0) state = 'not checked: no worker is in the server';
		else if (lacking.length === 0) state = 'every worker has it';
		else state = `${listInWords(lacking.map((worker) => worker.label))} ${lacking.length === 1 ? 'lacks' : 'lack'} it`;
		const mark = workers.length === 0 ? '?' : lacking.length === 0 ? '✓' : '✗';
		const invite =
			permission === WORKER_PERMISSIONS || names.some((name) => chosen.includes(name))
				? ''
				: `; not in the invite links (add ${names.map((name) => `"${name}"`).join(', ')} to invite.actions)`;
		lines.push(`  ${mark} ${slashed.join(', ')}: ${needs}${only}: ${state}${invite}`);
		const chosenHere = names.filter((name) => chosen.includes(name));
		if (permission === WORKER_PERMISSIONS || chosenHere.length === 0) continue;
		for (const worker of lacking) {
			findings.push({
				code: ErrorCodes.MissingPermission,
				severity: 'warning',
				bot: worker.label,
				message: `${worker.label}: it lacks ${needs}, which ${listInWords(chosenHere.map((name) => `/${name}`))} needs (invite.actions chooses it), so that command is refused.`,
				fix: `Server Settings → Roles → ${worker.roleName}: allow ${needs} (or re-invite ${worker.label} with its link below)`,
				context: { bot: worker.label, permission: needs, commands: chosenHere },
			});
		}
	}
	const known = new Set(commands.map((command) => command.command));
	for (const name of chosen.filter((candidate) => !known.has(candidate))) {
		findings.push({
			code: ErrorCodes.ConfigInvalid,
			severity: 'warning',
			message: `invite.actions names "${name}", which is no command of massnick, so the invite links ask nothing for it.`,
			fix: `config/massnick.json → invite.actions: use the commands' names, ${listInWords([...known].map((command) => `"${command}"`))}`,
			context: { setting: 'invite.actions', name },
		});
	}
	return { lines, findings };
}
