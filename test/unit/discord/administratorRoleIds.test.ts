import { PermissionFlagsBits, PermissionsBitField } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { administratorRoleIds } from '../../../src/discord/administratorRoleIds.js';
import { toMemberRecord } from '../../../src/discord/toMemberRecord.js';
import { hasAdministrator } from '../../../src/jobs/GuildContext.js';
import { GUILD_ID, guildContext } from '../../support/guildContext.js';

const role = (id: string, bits: bigint) => ({ id, permissions: new PermissionsBitField(bits) });

describe('administratorRoleIds', () => {
	it('names the roles whose own bits grant Administrator, not those with every other permission', () => {
		const all = PermissionsBitField.All & ~PermissionFlagsBits.Administrator;
		const ids = administratorRoleIds([role('1', PermissionFlagsBits.Administrator), role('2', all), role('3', PermissionFlagsBits.ModerateMembers)]);
		expect([...ids]).toEqual(['1']);
	});
});

describe('hasAdministrator', () => {
	const member = (roles: string[]) => ({ id: '300000000000000001', username: 'alice', globalName: null, nick: null, roles, bot: false });

	it('is true for a holder of an Administrator role and false for everyone else', () => {
		const ctx = guildContext({ roles: [['7', 2]], administratorRoleIds: ['7'] });
		expect(hasAdministrator(member(['7']), ctx)).toBe(true);
		expect(hasAdministrator(member([]), ctx)).toBe(false);
	});

	it('is true for every member when @everyone grants Administrator', () => {
		expect(hasAdministrator(member([]), guildContext({ administratorRoleIds: [GUILD_ID] }))).toBe(true);
	});
});

describe('toMemberRecord', () => {
	const api = (until: string | null) => ({
		user: { id: '300000000000000001', username: 'alice', global_name: null, discriminator: '0', avatar: null },
		roles: [],
		joined_at: '2024-01-31T00:00:00.000000+00:00',
		deaf: false,
		mute: false,
		flags: 0,
		communication_disabled_until: until,
	});

	it('keeps communication_disabled_until as Unix milliseconds, null when there is none', () => {
		expect(toMemberRecord(api('2026-05-01T12:00:00.000000+00:00')).communicationDisabledUntil).toBe(Date.UTC(2026, 4, 1, 12));
		expect(toMemberRecord(api(null)).communicationDisabledUntil).toBe(null);
	});
});
