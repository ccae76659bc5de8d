import { ApplicationFlags, OverwriteType, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { diagnose, type DiagnoseInput } from '../../../src/doctor/diagnose.js';
import { ErrorCodes } from '../../../src/errors.js';
import { BOSS_ID, bossFacts, CHANNEL_ID, GUILD_ID, guildFacts, ROLES, workerFacts } from './facts.js';

function input(changes: Partial<DiagnoseInput> = {}): DiagnoseInput {
	return { guildId: GUILD_ID, bots: [bossFacts(), workerFacts(0), workerFacts(1)], guild: guildFacts(), ...changes };
}

const fatal = (result: ReturnType<typeof diagnose>) => result.findings.filter((finding) => finding.severity === 'fatal');

describe('diagnose', () => {
	it('a healthy set-up has no fatal finding and an invite link per bot', () => {
		const result = diagnose(input());
		expect(fatal(result)).toEqual([]);
		expect(result.rows.map((row) => row.invite)).toEqual([
			`https://discord.com/oauth2/authorize?client_id=${BOSS_ID}&scope=bot+applications.commands&permissions=19456`,
			expect.stringContaining('scope=bot&permissions=134217728'),
			expect.stringContaining('scope=bot&permissions=134217728'),
		]);
	});

	it('the boss without Manage Guild stops no job: /lockdown is said to be off, with the role to change and a second link asking for it', () => {
		const result = diagnose(input());
		expect(fatal(result)).toEqual([]);
		expect(result.findings.map((finding) => finding.code)).not.toContain(ErrorCodes.MissingPermission);
		expect(result.lockdown).toEqual({
			ready: false,
			line: "/lockdown: off. The boss lacks Manage Guild: needed only for /lockdown, which pauses invites and DMs in a raid. To allow it: Server Settings → Roles → Massnick: allow Manage Guild, or open the boss's link with Manage Guild below.",
		});
		// 19456 (View Channel, Send Messages, Embed Links) and Manage Guild (32).
		expect(result.rows[0]!.lockdownInvite).toBe(`https://discord.com/oauth2/authorize?client_id=${BOSS_ID}&scope=bot+applications.commands&permissions=19488`);
		expect(result.rows[1]!.lockdownInvite).toBeUndefined();
	});

	it('the boss with Manage Guild (or Administrator) is ready for /lockdown', () => {
		const lockdownRole = { ...ROLES.massnick, id: '200000000000000009', name: 'Raid', permissions: String(PermissionFlagsBits.ManageGuild) };
		const guild = guildFacts({ roles: [...Object.values(ROLES), lockdownRole] });
		expect(diagnose(input({ guild, bots: [bossFacts({ memberRoles: [ROLES.massnick.id, lockdownRole.id] }), workerFacts(0)] })).lockdown?.ready).toBe(true);
		expect(diagnose(input({ bots: [bossFacts({ memberRoles: [ROLES.admin.id] }), workerFacts(0)] })).lockdown?.ready).toBe(true);
	});

	it('workers without the members intent rename only; with it they also list', () => {
		const result = diagnose(
			input({
				bots: [bossFacts(), workerFacts(0), workerFacts(1, { application: { ...workerFacts(1).application!, flags: ApplicationFlags.GatewayGuildMembers } })],
			}),
		);
		expect(result.rows.map((row) => row.membersIntent)).toEqual(['yes', 'no: renames only', 'yes: also lists members (faster)']);
		expect(fatal(result)).toEqual([]);
	});

	it('the boss without the members intent is fatal', () => {
		const result = diagnose(input({ bots: [bossFacts({ application: { ...bossFacts().application!, flags: 0 } }), workerFacts(0)] }));
		expect(fatal(result).map((finding) => finding.code)).toEqual([ErrorCodes.MembersIntentDisabled]);
	});

	it('a rejected token stops the checks of that bot and has no invite link', () => {
		const result = diagnose(input({ bots: [bossFacts(), workerFacts(0, { token: 'rejected', application: undefined, memberRoles: undefined })] }));
		expect(fatal(result)).toEqual([expect.objectContaining({ code: ErrorCodes.TokenRejected, bot: 'worker 0' })]);
		expect(fatal(result)[0]!.fix).toContain('WORKER_TOKENS (token 1 in the list)');
		expect(result.rows[1]).toMatchObject({ token: 'REJECTED', inGuild: '-' });
		expect(result.rows[1]!.invite).toBeUndefined();
	});

	it('the boss without the applications.commands scope is fatal', () => {
		const result = diagnose(input({ bots: [bossFacts({ commands: 'missing-access' }), workerFacts(0)] }));
		expect(fatal(result).map((finding) => finding.code)).toEqual([ErrorCodes.CommandsNotAllowed]);
	});

	it('counts who the workers cannot rename from role counts: roles at or above theirs, our bots left out, the owner added', () => {
		const result = diagnose(input());
		const warning = result.findings.find((finding) => finding.code === ErrorCodes.MembersAboveWorkers)!;
		// Admin 2 + Moderator 5 (an admin may also be a moderator) + the owner, who holds neither.
		expect(warning.context).toMatchObject({ atLeast: 6, atMost: 8 });
		expect(warning.message).toBe(
			"up to 8 members rank at or above the workers' role Massnick (2 with Admin, 5 with Moderator and the owner) and will be skipped.",
		);
		expect(warning.fix).toBe('to rename them too, drag Massnick above Admin in Server Settings → Roles (nobody can rename the owner)');
		expect(result.rows[1]!.cannotRename).toBe('up to 8');
	});

	it('an owner holding a counted role is not counted twice, and one group gives an exact count', () => {
		const guild = guildFacts({ ownerRoles: [ROLES.admin.id], roleMemberCounts: { [ROLES.massnick.id]: 3, [ROLES.admin.id]: 2 } });
		const warning = diagnose(input({ guild })).findings.find((finding) => finding.code === ErrorCodes.MembersAboveWorkers)!;
		expect(warning.context).toMatchObject({ atLeast: 2, atMost: 2 });
		expect(warning.message).toMatch(/^2 members rank/);
	});

	it('a worker without Manage Nicknames is fatal and names its role', () => {
		const guild = guildFacts({ roles: Object.values(ROLES).map((role) => (role === ROLES.massnick ? { ...role, permissions: '0' } : role)) });
		const result = diagnose(input({ guild }));
		expect(fatal(result).map((finding) => [finding.code, finding.bot])).toEqual([
			[ErrorCodes.MissingPermission, 'worker 0'],
			[ErrorCodes.MissingPermission, 'worker 1'],
		]);
		expect(fatal(result)[0]!.fix).toContain('Server Settings → Roles → Massnick: allow Manage Nicknames');
	});

	it('workers whose highest role is @everyone rename nobody: fatal', () => {
		const guild = guildFacts({
			roles: Object.values(ROLES).map((role) =>
				role === ROLES.everyone
					? {
							...role,
							permissions: String(
								PermissionFlagsBits.ManageNicknames | PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks,
							),
						}
					: role,
			),
		});
		const result = diagnose(input({ guild, bots: [bossFacts(), workerFacts(0, { memberRoles: [] })] }));
		expect(fatal(result).map((finding) => finding.code)).toEqual([ErrorCodes.NobodyRenamable]);
		expect(result.findings.some((finding) => finding.code === ErrorCodes.MembersAboveWorkers)).toBe(false);
	});

	it('a bot outside the guild is fatal and keeps its invite link as the fix', () => {
		const result = diagnose(input({ bots: [bossFacts(), workerFacts(0, { memberRoles: null })] }));
		expect(fatal(result)).toEqual([expect.objectContaining({ code: ErrorCodes.NotInGuild, bot: 'worker 0' })]);
		expect(result.rows[1]!.invite).toContain('client_id=');
	});

	it('the status channel: a member overwrite denying Send Messages is named in the fix', () => {
		const guild = guildFacts({}, [{ id: BOSS_ID, type: OverwriteType.Member, allow: '0', deny: String(PermissionFlagsBits.SendMessages) }]);
		const result = diagnose(input({ guild, channelId: CHANNEL_ID }));
		expect(fatal(result)).toEqual([expect.objectContaining({ code: ErrorCodes.StatusChannelNotWritable, bot: 'boss' })]);
		expect(fatal(result)[0]!.message).toBe('boss: it cannot post its live status in #general: it lacks Send Messages there.');
		expect(fatal(result)[0]!.fix).toBe('#general → Edit Channel → Permissions → Boss App: allow Send Messages (or remove the overwrite)');
		expect(result.rows[0]!.permissions).toBe('#general: no Send Messages');
	});

	it('the status channel: a channel the boss cannot see lacks everything; an unknown channel id is fatal', () => {
		const hidden = guildFacts({}, [{ id: GUILD_ID, type: OverwriteType.Role, allow: '0', deny: String(PermissionFlagsBits.ViewChannel) }]);
		expect(diagnose(input({ guild: hidden })).rows[0]!.permissions).toBe('#general: no View Channel, Send Messages and Embed Links');
		const unknown = diagnose(input({ channelId: '200000000000000077' }));
		expect(fatal(unknown)[0]!.message).toBe('boss: channel 200000000000000077 is not a text channel of Test Guild.');
	});
});
