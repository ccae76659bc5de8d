import { OverwriteType, PermissionFlagsBits, PermissionsBitField, type APIOverwrite } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { channelPermissions } from '../../../src/doctor/channelPermissions.js';

const GUILD = '100000000000000000';
const ROLE_A = '100000000000000001';
const ROLE_B = '100000000000000002';
const MEMBER = '100000000000000009';
const { SendMessages: send, ViewChannel: view, EmbedLinks: embed, Administrator: admin } = PermissionFlagsBits;

const overwrite = (id: string, type: OverwriteType, allow: bigint, deny: bigint): APIOverwrite => ({ id, type, allow: String(allow), deny: String(deny) });
const inChannel = (guild: bigint, overwrites: APIOverwrite[], roleIds = [ROLE_A, ROLE_B]): bigint =>
	channelPermissions(new PermissionsBitField(guild), { id: MEMBER, roleIds }, GUILD, overwrites).bitfield;

describe('channelPermissions', () => {
	it('without overwrites, the guild permissions', () => {
		expect(inChannel(view | send, [])).toBe(view | send);
	});

	it('@everyone first, then the roles together, then the member: each denies before it allows', () => {
		const everyoneDenies = overwrite(GUILD, OverwriteType.Role, 0n, send);
		const roleAllows = overwrite(ROLE_A, OverwriteType.Role, send, 0n);
		const otherRoleDenies = overwrite(ROLE_B, OverwriteType.Role, 0n, send);
		expect(inChannel(view | send, [everyoneDenies])).toBe(view);
		expect(inChannel(view | send, [everyoneDenies, roleAllows])).toBe(view | send);
		// Among roles an allow wins over a deny.
		expect(inChannel(view | send, [otherRoleDenies, roleAllows])).toBe(view | send);
		expect(inChannel(view | send, [roleAllows, overwrite(MEMBER, OverwriteType.Member, 0n, send)])).toBe(view);
		expect(inChannel(view, [overwrite(MEMBER, OverwriteType.Member, send | embed, 0n)])).toBe(view | send | embed);
	});

	it("overwrites of roles the member lacks, and other members', change nothing", () => {
		expect(
			inChannel(view | send, [overwrite(ROLE_B, OverwriteType.Role, 0n, send), overwrite('100000000000000008', OverwriteType.Member, 0n, view)], [ROLE_A]),
		).toBe(view | send);
	});

	it('Administrator is never overridden', () => {
		expect(inChannel(admin, [overwrite(MEMBER, OverwriteType.Member, 0n, view | send)])).toBe(PermissionsBitField.All);
	});
});
