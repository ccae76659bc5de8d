import { REST, Routes, type RESTGetAPIGuildMemberResult, type RESTGetAPIGuildRolesResult } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveSandboxOptions } from '../src/SandboxOptions.js';
import { SandboxOptionError } from '../src/SandboxOptionError.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { generateGuild } from '../src/state/generateGuild.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
	await sandbox?.close();
	sandbox = undefined;
});

/** The other applications' bots: bot members that are none of our apps. */
function otherBots(guild: ReturnType<typeof generateGuild>): number[] {
	const ours = new Set(guild.apps.map((app) => app.memberIndex));
	return [...guild.members.indices()].filter((index) => guild.members.isBot(index) && !ours.has(index));
}

describe('the otherBots option', () => {
	it('without it, the guild a seed gave is unchanged: MEE6 alone holds a managed role', () => {
		const usual = generateGuild({ members: 1000, workers: 2, seed: 1 });
		const asked = generateGuild({ members: 1000, workers: 2, seed: 1, otherBots: 4 });
		expect(otherBots(usual)).toHaveLength(4);
		expect(asked.roles).toEqual(usual.roles);
		expect(asked.apps.map((app) => app.token)).toEqual(usual.apps.map((app) => app.token));
		expect(usual.roles.filter((role) => role.managed).map((role) => role.name)).toEqual(['MEE6']);
	});

	it('puts that many other bots in the guild; those past the usual ones hold a managed role of their own, below the ladder', () => {
		const guild = generateGuild({ members: 200, workers: 3, seed: 5, otherBots: 44 });
		const bots = otherBots(guild);
		expect(bots).toHaveLength(44);
		expect(new Set(bots.map((index) => guild.members.username(index))).size).toBe(44);
		const botRoles = guild.roles.filter((role) => role.managed && role.name !== 'MEE6');
		expect(botRoles).toHaveLength(43);
		// Each is held by exactly the bot its tag names, and is named after it.
		for (const role of botRoles) {
			const holders = bots.filter((index) => guild.members.roles(index).includes(role.id));
			expect(holders.map((index) => [guild.members.idAt(index).toString(), guild.members.username(index)])).toEqual([[role.tags?.bot_id, role.name]]);
		}
		expect(botRoles.map((role) => role.position)).toEqual(botRoles.map((_, n) => n + 1));
		expect(guild.roles.map((role) => role.position)).toEqual(guild.roles.map((_, index) => index));
		expect(guild.roles.at(-1)!.name).toBe('Admin');
	});

	it('is refused below 1, above 1000, or above half the members, with the rest of the problems', () => {
		for (const [options, message] of [
			[{ otherBots: 0 }, 'must be an integer from 1 to 1000, got 0'],
			[{ otherBots: 1001, members: 10_000 }, 'must be an integer from 1 to 1000, got 1001'],
			[{ otherBots: 6, members: 10 }, 'must be at most half of members (10), got 6'],
		] as const) {
			let error: unknown;
			try {
				resolveSandboxOptions(options);
			} catch (thrown) {
				error = thrown;
			}
			expect(error).toBeInstanceOf(SandboxOptionError);
			expect((error as SandboxOptionError).problems).toContainEqual({ option: 'otherBots', message });
		}
	});

	it('discord.js reads the bots’ managed roles, tagged with the bot’s id, and the bots hold them', async () => {
		sandbox = await startSandbox({ members: 100, workers: 1, seed: 2, otherBots: 10 });
		const rest = new REST({ api: sandbox.apiUrl }).setToken(sandbox.bossToken);
		const roles = (await rest.get(Routes.guildRoles(sandbox.guildId))) as RESTGetAPIGuildRolesResult;
		const botRoles = roles.filter((role) => role.managed && role.tags?.bot_id !== undefined);
		expect(botRoles).toHaveLength(10);
		const last = botRoles.at(-1)!;
		const member = (await rest.get(Routes.guildMember(sandbox.guildId, last.tags!.bot_id!))) as RESTGetAPIGuildMemberResult;
		expect(member.user.bot).toBe(true);
		expect(member.roles).toContain(last.id);
	});
});

describe("Discord's 50 integrations a server", () => {
	const problemsOf = (options: Parameters<typeof resolveSandboxOptions>[0]): SandboxOptionError['problems'] => {
		try {
			resolveSandboxOptions(options);
			return [];
		} catch (error) {
			if (error instanceof SandboxOptionError) return error.problems;
			throw error;
		}
	};

	it('hold the boss, the workers and the other bots together: one more bot is refused, naming how many workers fit', () => {
		// 1,000 members bring 4 other bots: the boss and 45 workers make 50.
		expect(problemsOf({ members: 1000, workers: 45 })).toEqual([]);
		expect(problemsOf({ members: 1000, workers: 46 })).toEqual([
			{
				option: 'workers',
				message:
					'the boss, 46 workers and 4 other bots are 51 bots, and a Discord server holds at most 50 integrations, bots included: ask for fewer workers (at most 45), or raise integrationLimit for a guild Discord would not allow',
			},
		]);
		expect(problemsOf({ members: 200, workers: 3, otherBots: 47 })).toHaveLength(1);
		expect(problemsOf({ members: 200, workers: 2, otherBots: 47 })).toEqual([]);
	});

	it('is raised only on purpose, for a study of one process beyond one server', () => {
		expect(problemsOf({ members: 1000, workers: 400, integrationLimit: 405 })).toEqual([]);
		expect(resolveSandboxOptions({ members: 1000 }).integrationLimit).toBe(50);
	});
});
