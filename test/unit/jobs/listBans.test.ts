import { type APIBan, DiscordAPIError, type REST, RESTJSONErrorCodes, Routes } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../src/errors.js';
import { BAN_PAGE_SIZE, listBans } from '../../../src/jobs/listBans.js';

const GUILD_ID = '222222222222222222';
const ban = (n: number): APIBan => ({
	user: { id: String(1_000_000_000_000_000n + BigInt(n)), username: `raider_${n}`, global_name: `free nitro ${n}`, discriminator: '0', avatar: null },
	reason: 'raid',
});

/** A REST client serving `bans` as Get Guild Bans does, recording each page's `after`. */
function banList(bans: APIBan[], fail?: unknown) {
	const afters: string[] = [];
	const rest = {
		async get(route: string, options: { query: URLSearchParams }) {
			expect(route).toBe(Routes.guildBans(GUILD_ID));
			if (fail) throw fail;
			const after = BigInt(options.query.get('after') ?? '0');
			afters.push(String(after));
			return bans.filter((entry) => BigInt(entry.user.id) > after).slice(0, Number(options.query.get('limit')));
		},
	} as unknown as REST;
	return { rest, afters };
}

async function all(iterable: AsyncIterable<unknown[]>): Promise<unknown[][]> {
	const pages: unknown[][] = [];
	for await (const page of iterable) pages.push(page);
	return pages;
}

describe('listBans', () => {
	it('pages the ban list by after, 1000 at a time, each entry a banned user with no roles and no nickname', async () => {
		const bans = Array.from({ length: 2 * BAN_PAGE_SIZE + 5 }, (_, n) => ban(n));
		const { rest, afters } = banList(bans);
		const pages = await all(listBans({ guildId: GUILD_ID, rests: [{ rest, label: 'worker 0' }] }));
		expect(pages.map((page) => page.length)).toEqual([1000, 1000, 5]);
		expect(afters).toEqual(['0', bans[999]!.user.id, bans[1999]!.user.id]);
		expect(pages[0]![0]).toEqual({ id: bans[0]!.user.id, username: 'raider_0', globalName: 'free nitro 0', nick: null, roles: [], bot: false, banned: true });
	});

	it('a bot without Ban Members ends the listing with an error that says what to give', async () => {
		const refused = new DiscordAPIError(
			{ code: RESTJSONErrorCodes.MissingPermissions, message: 'Missing Permissions' },
			RESTJSONErrorCodes.MissingPermissions,
			403,
			'GET',
			'x',
			{
				body: undefined,
			},
		);
		const { rest } = banList([], refused);
		await expect(all(listBans({ guildId: GUILD_ID, rests: [{ rest, label: 'worker 3' }] }))).rejects.toMatchObject({
			code: ErrorCodes.MissingPermission,
			message: expect.stringMatching(/worker 3 may not read the guild's ban list: give the workers' role Ban Members/),
		});
	});
});
