import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, SandboxControl, startSandbox } from '@massnick/discord-sandbox';
import { loadConfig } from '../../src/config/loadConfig.js';
import { ErrorCodes } from '../../src/errors.js';
import { runDoctor, type DoctorResult } from '../../src/doctor/runDoctor.js';

const run = promisify(execFile);

/** Everything a doctor run said, and what it returned. */
interface Checkup extends DoctorResult {
	text: string;
}

let sandbox: Sandbox | undefined;
afterEach(async () => {
	await sandbox?.close();
	sandbox = undefined;
});

/** A fresh sandbox per case: each misconfiguration is injected alone. */
async function start(): Promise<{ sandbox: Sandbox; control: SandboxControl }> {
	sandbox = await startSandbox({ members: 200, workers: 3, seed: 5 });
	return { sandbox, control: new SandboxControl(sandbox.controlUrl) };
}

function env(target: Sandbox): Record<string, string> {
	return { BOSS_TOKEN: target.bossToken, WORKER_TOKENS: target.workerTokens.join(','), GUILD_ID: target.guildId, DISCORD_API_URL: target.apiUrl };
}

/** Runs the doctor in-process with the sandbox's configuration, and checks no token leaked. */
async function checkup(target: Sandbox, options: { channelId?: string; inviteActions?: string[] } = {}): Promise<Checkup> {
	const loaded = loadConfig({ env: env(target), dotenvPath: false });
	const config = options.inviteActions === undefined ? loaded : { ...loaded, invite: { actions: options.inviteActions } };
	const lines: string[] = [];
	const result = await runDoctor({ config, out: (line) => lines.push(line), ...(options.channelId === undefined ? {} : { channelId: options.channelId }) });
	const text = lines.join('\n');
	for (const token of [target.bossToken, ...target.workerTokens]) expect(text).not.toContain(token);
	return { ...result, text };
}

function roleId(target: Sandbox, name: string): string {
	const role = target.state.guild.roles.find((candidate) => candidate.name === name);
	if (!role) throw new Error(`no role ${name}`);
	return role.id;
}

describe('npm run doctor', () => {
	it('a healthy sandbox exits 0, with invite links carrying each application id and exactly its permissions', async () => {
		const { sandbox } = await start();
		const result = await checkup(sandbox, { channelId: sandbox.channelId });
		expect(result.exitCode).toBe(0);
		expect(result.findings.filter((finding) => finding.severity === 'fatal')).toEqual([]);
		expect(result.text).toContain(`https://discord.com/oauth2/authorize?client_id=${sandbox.bossId}&scope=bot+applications.commands&permissions=19456`);
		for (const workerId of sandbox.workerIds) {
			expect(result.text).toContain(`https://discord.com/oauth2/authorize?client_id=${workerId}&scope=bot&permissions=134217728`);
		}
		// One row per bot, named by role and place, never by token.
		expect(result.text).toMatch(/^boss +Massnick Boss +accepted +yes +#general: ok +ok +Massnick/m);
		expect(result.text).toMatch(/^worker 2 +Massnick Worker 3 +accepted +yes +Manage Nicknames: ok/m);
		expect(result.text).toContain('✓ Nothing stops a job');
		// Manage Guild is for /lockdown alone: its own line and its own link, never a problem.
		expect(result.text).toContain('/lockdown: off. The boss lacks Manage Guild: needed only for /lockdown');
		expect(result.text).toMatch(
			new RegExp(
				`^ {2}boss with Manage Guild \\(needed only for /lockdown\\) +https://discord\\.com/oauth2/authorize\\?client_id=${sandbox.bossId}&scope=bot\\+applications\\.commands&permissions=19488$`,
				'm',
			),
		);
		expect(result.text).toMatch(/─+\nJournals on disk/);
		// The room is always shown: the boss, 3 workers and MEE6 use 5 of Discord's 50 integrations.
		expect(result.text).toContain('This server can take at most 45 more workers (50 integrations; at least 5 bots in it now).');
		expect(result.findings.map((finding) => finding.code)).not.toContain(ErrorCodes.ServerNearLimit);
	});

	it('says which permission each command needs of the workers; the invite links ask for Moderate Members only once invite.actions chooses /masstimeout', async () => {
		const { sandbox, control } = await start();
		const plain = await checkup(sandbox);
		expect(plain.text).toContain('  ✓ /massnick, /sanitize, /clearnicks: Manage Nicknames: every worker has it');
		expect(plain.text).toContain(
			'  ✓ /massrole: Manage Roles (needed only for /massrole): every worker has it; not in the invite links (add "massrole" to invite.actions)',
		);
		expect(plain.text).toContain(
			'  ✗ /masstimeout: Moderate Members (needed only for /masstimeout): worker 0, worker 1 and worker 2 lack it; not in the invite links (add "masstimeout" to invite.actions)',
		);
		expect(plain.findings.filter((finding) => finding.code === ErrorCodes.MissingPermission)).toEqual([]);

		const chosen = await checkup(sandbox, { inviteActions: ['masstimeout'] });
		const withModeration = (1n << 27n) | (1n << 40n);
		for (const workerId of sandbox.workerIds) expect(chosen.text).toContain(`client_id=${workerId}&scope=bot&permissions=${withModeration}`);
		expect(chosen.text).toContain(`client_id=${sandbox.bossId}&scope=bot+applications.commands&permissions=19456`);
		expect(chosen.exitCode).toBe(0);
		expect(chosen.findings.filter((finding) => finding.code === ErrorCodes.MissingPermission).map((finding) => finding.bot)).toEqual([
			'worker 0',
			'worker 1',
			'worker 2',
		]);
		expect(chosen.text).toContain('! worker 0: it lacks Moderate Members, which /masstimeout needs (invite.actions chooses it), so that command is refused.');

		const massnickRole = roleId(sandbox, 'Massnick');
		await control.editRole(sandbox.guildId, massnickRole, {
			permissions: ['ManageNicknames', 'ChangeNickname', 'ViewAuditLog', 'ManageRoles', 'ModerateMembers'],
		});
		const given = await checkup(sandbox, { inviteActions: ['masstimeout'] });
		expect(given.text).toContain('  ✓ /masstimeout: Moderate Members (needed only for /masstimeout): every worker has it');
		expect(given.findings.filter((finding) => finding.code === ErrorCodes.MissingPermission)).toEqual([]);
	});

	it('a server holding 48 bots can take 2 more workers: said without listing anyone, with a warning that is no problem', async () => {
		// The boss, 3 workers and 44 other bots (MEE6 and 43 with managed roles of their own).
		sandbox = await startSandbox({ members: 200, workers: 3, seed: 5, otherBots: 44 });
		const control = new SandboxControl(sandbox.controlUrl);
		const result = await checkup(sandbox);
		expect(result.exitCode).toBe(0);
		expect(result.text).toMatch(/^ {2}integrations +at least 48 of 50: the boss, 3 workers and 44 other bots$/m);
		expect(result.text).toMatch(/^ {2}roles +53 of 250, and each bot added brings one$/m);
		expect(result.text).toContain('  This server can take at most 2 more workers (50 integrations; at least 48 bots in it now).');
		expect(result.findings).toContainEqual(
			expect.objectContaining({ code: ErrorCodes.ServerNearLimit, severity: 'warning', context: expect.objectContaining({ integrations: 48, moreBots: 2 }) }),
		);
		expect(result.text).toContain("! the server is near Discord's limit of 50 integrations: at least 48 are in use, so it can take at most 2 more workers.");
		expect(result.text).toContain(
			'fix: nothing stops a job; before adding workers or other bots, remove bots the server no longer uses (Server Settings → Integrations); see docs/discord.md, "How many bots one server holds"',
		);
		const listed = (await control.requests()).requests.filter((request) => request.route === '/guilds/:id/members');
		expect(listed).toEqual([]);
		expect((await control.members(sandbox.guildId)).filter((member) => member.bot)).toHaveLength(48);
	});

	it('a worker that is not in a full server is told it will not fit', async () => {
		// 51 bots: a server over the cap from before Discord enforced it, which it kept (the cap is
		// not retroactive, discord-api-docs #7405); one worker leaves, and cannot come back.
		sandbox = await startSandbox({ members: 200, workers: 3, seed: 5, otherBots: 47, integrationLimit: 51 });
		const control = new SandboxControl(sandbox.controlUrl);
		await control.removeMember(sandbox.guildId, sandbox.workerIds[0]!);
		const result = await checkup(sandbox);
		expect(result.exitCode).toBe(1);
		expect(result.text).toContain(
			'  This server can take no more bots (50 integrations; at least 50 bots in it now): fewer than the 1 configured bot not in it yet.',
		);
		expect(result.findings).toContainEqual(
			expect.objectContaining({ code: ErrorCodes.ServerFull, severity: 'warning', context: expect.objectContaining({ moreBots: 0, toAdd: 1 }) }),
		);
		expect(result.text).toContain('inviting them will fail with "Maximum number of guild integrations reached (50)".');
	});

	it('workers without the Server Members intent are healthy; one that has it also lists members', async () => {
		const { sandbox, control } = await start();
		await control.faults({ membersIntent: { appId: sandbox.workerIds[1], enabled: true } });
		const result = await checkup(sandbox);
		expect(result.exitCode).toBe(0);
		expect(result.text).toMatch(/^worker 0 .* no: renames only$/m);
		expect(result.text).toMatch(/^worker 1 .* yes: also lists members \(faster\)$/m);
	});

	it('a revoked token is named by its place in WORKER_TOKENS, with how to get a new one', async () => {
		const { sandbox, control } = await start();
		await control.faults({ revokeToken: { appId: sandbox.workerIds[1] } });
		const result = await checkup(sandbox);
		expect(result.exitCode).toBe(1);
		expect(result.findings).toContainEqual(expect.objectContaining({ code: ErrorCodes.TokenRejected, bot: 'worker 1', severity: 'fatal' }));
		expect(result.text).toContain('✗ worker 1: Discord rejected its token (401 Unauthorized).');
		expect(result.text).toContain(
			'fix: Developer Portal → its application → Bot → Reset Token, then put the new token in .env as WORKER_TOKENS (token 2 in the list)',
		);
		expect(result.text).toMatch(/^ {2}worker 1 +\(unknown until Discord accepts this bot's token\)$/m);
	});

	it('an application that is not in the guild is named, and its invite link is the fix', async () => {
		const { sandbox, control } = await start();
		await control.removeMember(sandbox.guildId, sandbox.workerIds[0]!);
		const result = await checkup(sandbox);
		expect(result.exitCode).toBe(1);
		expect(result.findings).toContainEqual(expect.objectContaining({ code: ErrorCodes.NotInGuild, bot: 'worker 0' }));
		expect(result.text).toContain(`✗ worker 0: Massnick Worker 1 is not a member of guild ${sandbox.guildId}.`);
		expect(result.text).toContain("fix: open worker 0's invite link below and add it to the server");
		expect(result.text).toMatch(/^worker 0 +Massnick Worker 1 +accepted +NO /m);
		expect(result.text).toContain(`client_id=${sandbox.workerIds[0]}&scope=bot&permissions=134217728`);
	});

	it('a missing permission names the role to fix', async () => {
		const { sandbox, control } = await start();
		await control.editRole(sandbox.guildId, roleId(sandbox, 'Massnick'), { permissions: ['ChangeNickname', 'ViewAuditLog'] });
		const result = await checkup(sandbox);
		expect(result.exitCode).toBe(1);
		const missing = result.findings.filter((finding) => finding.code === ErrorCodes.MissingPermission);
		expect(missing.map((finding) => finding.bot)).toEqual(['worker 0', 'worker 1', 'worker 2']);
		expect(result.text).toContain('✗ worker 0: it lacks Manage Nicknames, so it can rename nobody.');
		expect(result.text).toContain('fix: Server Settings → Roles → Massnick: allow Manage Nicknames');
	});

	it('a member ranked above the workers is counted, without listing anyone, and named as a warning with its fix', async () => {
		const { sandbox, control } = await start();
		const before = await checkup(sandbox);
		const above = before.findings.find((finding) => finding.code === ErrorCodes.MembersAboveWorkers)!;
		const massnick = sandbox.state.rolesById.get(roleId(sandbox, 'Massnick'))!;
		const vip = await control.createRole(sandbox.guildId, { name: 'VIP', position: massnick.position + 1 });
		const ordinary = (await control.members(sandbox.guildId)).find((member) => !member.bot && member.roles.length === 1)!;
		await control.addMemberRole(sandbox.guildId, ordinary.id, vip.id);

		const result = await checkup(sandbox);
		const warning = result.findings.find((finding) => finding.code === ErrorCodes.MembersAboveWorkers)!;
		expect(warning.severity).toBe('warning');
		expect(warning.context.atMost).toBe((above.context.atMost as number) + 1);
		expect(warning.message).toContain('1 with VIP');
		expect(result.text).toMatch(/^! .* members rank at or above the workers' role Massnick \(.*1 with VIP.*\) and will be skipped\.$/m);
		expect(result.text).toMatch(/fix: to rename them too, drag Massnick above \w+ in Server Settings → Roles/);
		// Skipping some members stops nothing.
		expect(result.exitCode).toBe(0);
		const listed = (await control.requests()).requests.filter((request) => request.route === '/guilds/:id/members');
		expect(listed).toEqual([]);
	});

	it('workers whose highest role outranks nobody stop a job', async () => {
		const { sandbox, control } = await start();
		const everyone = sandbox.state.rolesById.get(sandbox.guildId)!;
		await control.editRole(sandbox.guildId, everyone.id, { permissions: (BigInt(everyone.permissions) | 134217728n).toString() });
		for (const workerId of sandbox.workerIds) await control.removeMemberRole(sandbox.guildId, workerId, roleId(sandbox, 'Massnick'));
		const result = await checkup(sandbox);
		expect(result.exitCode).toBe(1);
		expect(result.findings).toContainEqual(expect.objectContaining({ code: ErrorCodes.NobodyRenamable, severity: 'fatal' }));
		expect(result.text).toContain("✗ the workers' highest role (@everyone) is not above any member: a job would rename nobody.");
	});

	it('the boss without the Server Members intent stops a job, with where to switch it on', async () => {
		const { sandbox, control } = await start();
		await control.faults({ membersIntent: { appId: sandbox.bossId, enabled: false } });
		const result = await checkup(sandbox);
		expect(result.exitCode).toBe(1);
		expect(result.findings).toContainEqual(expect.objectContaining({ code: ErrorCodes.MembersIntentDisabled, bot: 'boss' }));
		expect(result.text).toContain('✗ boss: its application (Massnick Boss) lacks the Server Members intent');
		expect(result.text).toContain('fix: Developer Portal → Massnick Boss → Bot → Privileged Gateway Intents: switch on Server Members Intent and save');
	});

	it('the boss unable to post in the status channel is named with the overwrite to change', async () => {
		const { sandbox, control } = await start();
		await control.setChannelPermission(sandbox.channelId, sandbox.bossId, { type: 1, deny: ['SendMessages'] });
		for (const channelId of [sandbox.channelId, undefined]) {
			const result = await checkup(sandbox, channelId === undefined ? {} : { channelId });
			expect(result.exitCode).toBe(1);
			expect(result.findings).toContainEqual(expect.objectContaining({ code: ErrorCodes.StatusChannelNotWritable, bot: 'boss', severity: 'fatal' }));
			expect(result.text).toContain('✗ boss: it cannot post its live status in #general: it lacks Send Messages there.');
			expect(result.text).toContain('fix: #general → Edit Channel → Permissions → Massnick Boss: allow Send Messages (or remove the overwrite)');
			expect(result.text).toMatch(/^boss +Massnick Boss +accepted +yes +#general: no Send Messages /m);
		}
	});

	it('runs as a command: exit 0 when healthy, 1 on a problem, 2 on a bad argument', async () => {
		const { sandbox, control } = await start();
		const cli = (args: string[]) =>
			run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'doctor', ...args], {
				env: { PATH: process.env.PATH, ...env(sandbox), LOG_LEVEL: 'silent', MASSNICK_CONFIG_DIR: 'test/support/config' },
			}).then(
				({ stdout }) => ({ code: 0, stdout }),
				(error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout + error.stderr }),
			);
		const healthy = await cli(['--channel', sandbox.channelId]);
		expect(healthy.code).toBe(0);
		expect(healthy.stdout).toContain(`client_id=${sandbox.bossId}`);
		await control.faults({ revokeToken: { appId: sandbox.bossId } });
		const broken = await cli([]);
		expect(broken.code).toBe(1);
		expect(broken.stdout).toContain('✗ boss: Discord rejected its token');
		expect((await cli(['--channel', 'general'])).code).toBe(2);
		for (const output of [healthy.stdout, broken.stdout]) for (const token of [sandbox.bossToken, ...sandbox.workerTokens]) expect(output).not.toContain(token);
	});
});
