import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { inviteUrl } from '../../../src/discord/inviteUrl.js';
import { REQUIRED_PERMISSIONS } from '../../../src/discord/requiredPermissions.js';

describe('inviteUrl', () => {
	it('the boss: bot and applications.commands, View Channel + Send Messages + Embed Links', () => {
		expect(REQUIRED_PERMISSIONS.boss).toBe(PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks);
		expect(inviteUrl('175928847299117063', 'boss')).toBe(
			'https://discord.com/oauth2/authorize?client_id=175928847299117063&scope=bot+applications.commands&permissions=19456',
		);
	});

	it('a worker: bot only, Manage Nicknames only', () => {
		expect(inviteUrl('175928847299117063', 'worker')).toBe('https://discord.com/oauth2/authorize?client_id=175928847299117063&scope=bot&permissions=134217728');
	});
});
