import { PermissionFlagsBits, PermissionsBitField } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { commandPermissions } from '../../../src/actions/index.js';
import { checkCommands, workerInvitePermissions } from '../../../src/doctor/checkCommands.js';
import { diagnose } from '../../../src/doctor/diagnose.js';
import { ErrorCodes } from '../../../src/errors.js';
import { bossFacts, GUILD_ID, guildFacts, ROLES, workerFacts } from './facts.js';

const commands = commandPermissions();
const worker = (label: string, bits: bigint) => ({ label, permissions: new PermissionsBitField(bits), roleName: 'Massnick' });
const nicknamesOnly = PermissionFlagsBits.ManageNicknames;

describe('commandPermissions', () => {
	it('gives each command the permission its module asks of who runs it: the same its action asks of the workers', () => {
		expect(commands).toEqual([
			{ command: 'massnick', permission: PermissionFlagsBits.ManageNicknames },
			{ command: 'massrole', permission: PermissionFlagsBits.ManageRoles },
			{ command: 'sanitize', permission: PermissionFlagsBits.ManageNicknames },
			{ command: 'clearnicks', permission: PermissionFlagsBits.ManageNicknames },
			{ command: 'masstimeout', permission: PermissionFlagsBits.ModerateMembers },
			{ command: 'masskick', permission: PermissionFlagsBits.KickMembers },
			{ command: 'massban', permission: PermissionFlagsBits.BanMembers | PermissionFlagsBits.ManageGuild },
		]);
	});
});

describe('checkCommands', () => {
	it('says which permission each command needs, that the extra ones are needed only for their command, and which workers lack them', () => {
		const { lines, findings } = checkCommands({ commands, chosen: [], workers: [worker('worker 0', nicknamesOnly), worker('worker 1', nicknamesOnly)] });
		expect(lines.slice(1)).toEqual([
			'  ✓ /massnick, /sanitize, /clearnicks: Manage Nicknames: every worker has it',
			'  ✗ /massrole: Manage Roles (needed only for /massrole): worker 0 and worker 1 lack it; not in the invite links (add "massrole" to invite.actions)',
			'  ✗ /masstimeout: Moderate Members (needed only for /masstimeout): worker 0 and worker 1 lack it; not in the invite links (add "masstimeout" to invite.actions)',
			'  ✗ /masskick: Kick Members (needed only for /masskick): worker 0 and worker 1 lack it; not in the invite links (add "masskick" to invite.actions)',
			'  ✗ /massban: Ban Members and Manage Guild (needed only for /massban): worker 0 and worker 1 lack it; not in the invite links (add "massban" to invite.actions)',
		]);
		// Not chosen: the operator may not want it, so lacking it is no problem.
		expect(findings).toEqual([]);
	});

	it('warns, per worker, of a chosen command’s permission a worker lacks, with the fix', () => {
		const { lines, findings } = checkCommands({
			commands,
			chosen: ['masstimeout'],
			workers: [worker('worker 0', nicknamesOnly | PermissionFlagsBits.ModerateMembers), worker('worker 1', nicknamesOnly)],
		});
		expect(lines).toContain('  ✗ /masstimeout: Moderate Members (needed only for /masstimeout): worker 1 lacks it');
		expect(findings).toEqual([
			expect.objectContaining({
				code: ErrorCodes.MissingPermission,
				severity: 'warning',
				bot: 'worker 1',
				message: 'worker 1: it lacks Moderate Members, which /masstimeout needs (invite.actions chooses it), so that command is refused.',
				fix: 'Server Settings → Roles → Massnick: allow Moderate Members (or re-invite worker 1 with its link below)',
			}),
		]);
	});

	it('warns of a name in invite.actions that is no command, naming the commands', () => {
		const { findings } = checkCommands({ commands, chosen: ['masstimout'], workers: [] });
		expect(findings.map((finding) => [finding.code, finding.severity])).toEqual([[ErrorCodes.ConfigInvalid, 'warning']]);
		expect(findings[0]!.fix).toContain('"masstimeout"');
	});

	it('asks in the invite links for Manage Nicknames and what invite.actions chooses, nothing else', () => {
		expect(workerInvitePermissions(commands, [])).toBe(PermissionFlagsBits.ManageNicknames);
		expect(workerInvitePermissions(commands, ['masstimeout', 'nothing'])).toBe(PermissionFlagsBits.ManageNicknames | PermissionFlagsBits.ModerateMembers);
	});
});

describe('diagnose with the commands', () => {
	it('puts the chosen permissions in the workers’ invite links only, and the lines in the diagnosis', () => {
		const result = diagnose({
			guildId: GUILD_ID,
			bots: [bossFacts(), workerFacts(0), workerFacts(1)],
			guild: guildFacts(),
			commands,
			inviteActions: ['masstimeout'],
		});
		const permissions = (url: string | undefined) => BigInt(new URL(url!).searchParams.get('permissions')!);
		expect(permissions(result.rows[0]!.invite)).toBe(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks);
		expect(permissions(result.rows[1]!.invite)).toBe(PermissionFlagsBits.ManageNicknames | PermissionFlagsBits.ModerateMembers);
		expect(result.commands?.join('\n')).toContain('/masstimeout: Moderate Members (needed only for /masstimeout): worker 0 and worker 1 lack it');
		expect(result.findings.filter((finding) => finding.code === ErrorCodes.MissingPermission).map((finding) => finding.bot)).toEqual(['worker 0', 'worker 1']);
		expect(ROLES.massnick.permissions).toBe(String(PermissionFlagsBits.ManageNicknames));
	});
});
