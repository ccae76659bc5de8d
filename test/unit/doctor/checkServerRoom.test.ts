import { describe, expect, it } from 'vitest';
import { checkServerRoom } from '../../../src/doctor/checkServerRoom.js';
import type { ServerRoom } from '../../../src/doctor/countServerRoom.js';
import { diagnose } from '../../../src/doctor/diagnose.js';
import { renderReport } from '../../../src/doctor/renderReport.js';
import { ErrorCodes } from '../../../src/errors.js';
import { bossFacts, GUILD_ID, guildFacts, workerFacts } from './facts.js';

/** The sandbox's bar: the boss, 3 workers and 44 other bots, 53 roles. */
function room(changes: Partial<ServerRoom> = {}): ServerRoom {
	return {
		ours: { boss: true, workers: 3 },
		otherBots: 44,
		bots: 48,
		otherIntegrations: 0,
		integrations: 48,
		roles: 53,
		toAdd: 0,
		moreBots: 2,
		limitedBy: 'integrations',
		...changes,
	};
}

const SOURCE = 'docs/discord.md, "How many bots one server holds"';

describe('checkServerRoom', () => {
	it('48 bots: the report says 2 more workers, and warns that the server is near 50 integrations', () => {
		const { lines, findings } = checkServerRoom(room());
		expect(lines).toEqual([
			`Room for more bots (Discord's limits and their sources: ${SOURCE})`,
			'  integrations  at least 48 of 50: the boss, 3 workers and 44 other bots',
			'  roles         53 of 250, and each bot added brings one',
			'  This server can take at most 2 more workers (50 integrations; at least 48 bots in it now).',
			'  Other bots are seen by their roles, without listing anyone: Server Settings → Integrations lists every one.',
		]);
		expect(findings).toEqual([
			{
				code: ErrorCodes.ServerNearLimit,
				severity: 'warning',
				message: "the server is near Discord's limit of 50 integrations: at least 48 are in use, so it can take at most 2 more workers.",
				fix: `nothing stops a job; before adding workers or other bots, remove bots the server no longer uses (Server Settings → Integrations); see ${SOURCE}`,
				context: { integrations: 48, roles: 53, moreBots: 2, toAdd: 0, limitedBy: 'integrations', limit: 50 },
			},
		]);
	});

	it('room for 5 or more workers is shown without a warning', () => {
		const { lines, findings } = checkServerRoom(room({ otherBots: 41, bots: 45, integrations: 45, moreBots: 5 }));
		expect(lines).toContain('  This server can take at most 5 more workers (50 integrations; at least 45 bots in it now).');
		expect(findings).toEqual([]);
	});

	it('fewer bots fit than the configured ones not in the server yet: a warning naming the error Discord will give', () => {
		const { lines, findings } = checkServerRoom(
			room({ ours: { boss: true, workers: 1 }, bots: 46, integrations: 49, otherIntegrations: 3, moreBots: 1, toAdd: 2 }),
		);
		expect(lines[1]).toBe('  integrations  at least 49 of 50: the boss, 1 worker, 44 other bots and 3 other integrations');
		expect(lines).toContain(
			'  This server can take at most 1 more bot (50 integrations; at least 46 bots in it now): fewer than the 2 configured bots not in it yet.',
		);
		expect(findings).toEqual([
			expect.objectContaining({
				code: ErrorCodes.ServerFull,
				severity: 'warning',
				message:
					'the server has room for at most 1 more bot (Discord\'s limit of 50 integrations: at least 49 are in use), fewer than the 2 configured bots not in it yet: inviting them will fail with "Maximum number of guild integrations reached (50)".',
				fix: `remove bots the server no longer uses (Server Settings → Integrations), or take the workers that do not fit out of WORKER_TOKENS; see ${SOURCE}`,
			}),
		]);
	});

	it('the configured bots still to invite come first in the count of workers', () => {
		const { lines, findings } = checkServerRoom(room({ ours: { boss: true, workers: 2 }, bots: 47, integrations: 47, moreBots: 3, toAdd: 1 }));
		expect(lines).toContain(
			'  This server can take at most 3 more bots (50 integrations; at least 47 bots in it now): the 1 configured bot not in it yet, then at most 2 more workers.',
		);
		expect(findings.map((finding) => finding.message)).toEqual([
			"the server is near Discord's limit of 50 integrations: at least 47 are in use, so once the configured bots are in, it can take at most 2 more workers.",
		]);
	});

	it('a server at or past 50 integrations can take no more workers', () => {
		const { lines, findings } = checkServerRoom(room({ otherBots: 60, bots: 64, integrations: 64, moreBots: 0 }));
		expect(lines).toContain('  This server can take no more workers (50 integrations; at least 64 bots in it now).');
		expect(findings[0]!.message).toBe("the server is at Discord's limit of 50 integrations: at least 64 are in use, so it can take no more workers.");
	});

	it('near 250 roles, the roles are the limit named, with their own fix', () => {
		const { lines, findings } = checkServerRoom(room({ otherBots: 0, bots: 4, integrations: 4, roles: 247, moreBots: 3, limitedBy: 'roles' }));
		expect(lines).toContain('  This server can take at most 3 more workers (250 roles, one per bot; 247 in it now).');
		expect(findings).toEqual([
			expect.objectContaining({
				code: ErrorCodes.ServerNearLimit,
				message: "the server is near Discord's limit of 250 roles: 247 exist and each bot brings one, so it can take at most 3 more workers.",
				fix: `nothing stops a job; before adding workers or other bots, delete roles nobody uses (Server Settings → Roles), or untick the permissions on a worker's invite and give it the workers' role by hand; see ${SOURCE}`,
				context: expect.objectContaining({ limitedBy: 'roles', limit: 250 }),
			}),
		]);
	});

	it('at 250 roles the invite links are refused, and the fix says how a worker still joins', () => {
		const { findings } = checkServerRoom(
			room({ ours: { boss: true, workers: 2 }, otherBots: 0, bots: 3, integrations: 3, roles: 250, moreBots: 0, toAdd: 1, limitedBy: 'roles' }),
		);
		expect(findings).toEqual([
			expect.objectContaining({
				code: ErrorCodes.ServerFull,
				message:
					"the server has room for no more bots (Discord's limit of 250 roles: 250 exist and each bot brings one), fewer than the 1 configured bot not in it yet: Discord will refuse their invite links, which ask for permissions.",
				fix: `delete roles nobody uses (Server Settings → Roles), or untick the permissions on a worker's invite and give it the workers' role by hand, or take the workers that do not fit out of WORKER_TOKENS; see ${SOURCE}`,
			}),
		]);
	});
});

describe('the report', () => {
	it('always shows the room, between the bots and the problems', () => {
		const diagnosis = diagnose({ guildId: GUILD_ID, bots: [bossFacts(), workerFacts(0), workerFacts(1)], guild: guildFacts() });
		expect(diagnosis.findings.map((finding) => finding.code)).not.toContain(ErrorCodes.ServerNearLimit);
		const lines = renderReport({ guildId: GUILD_ID, guild: guildFacts(), diagnosis });
		const heading = lines.findIndex((line) => line.startsWith('Room for more bots'));
		expect(heading).toBeGreaterThan(lines.findIndex((line) => line.startsWith('worker 1')));
		expect(heading).toBeLessThan(lines.indexOf('Warnings:'));
		expect(lines).toContain('  This server can take at most 47 more workers (50 integrations; at least 3 bots in it now).');
	});

	it('has no room section when no bot could read the guild', () => {
		const diagnosis = diagnose({ guildId: GUILD_ID, bots: [bossFacts({ memberRoles: null })], guild: null });
		expect(diagnosis.room).toBeUndefined();
		expect(renderReport({ guildId: GUILD_ID, guild: null, diagnosis }).some((line) => line.startsWith('Room for more bots'))).toBe(false);
	});
});
