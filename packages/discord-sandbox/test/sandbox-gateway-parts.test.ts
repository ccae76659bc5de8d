import { GatewayIntentBits } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { encodeControl, encodeDispatch } from '../src/gateway/encodePayload.js';
import { exactChunks } from '../src/gateway/exactChunks.js';
import { KNOWN_INTENTS, PRIVILEGED_INTENTS } from '../src/gateway/intents.js';
import { MemberRequestLimiter } from '../src/gateway/MemberRequestLimiter.js';
import { ReplayBuffer } from '../src/gateway/ReplayBuffer.js';
import { SendWindow } from '../src/gateway/SendWindow.js';
import { shardIdForGuild } from '../src/gateway/shardIdForGuild.js';

describe('sandbox gateway parts', () => {
	it('a spliced dispatch frame is the JSON of {op: 0, s, t, d}', () => {
		const d = { nick: 'a "quoted" name', roles: [] };
		expect(JSON.parse(encodeDispatch(7, 'GUILD_MEMBER_UPDATE', JSON.stringify(d)))).toEqual({ op: 0, s: 7, t: 'GUILD_MEMBER_UPDATE', d });
		expect(JSON.parse(encodeControl(11, undefined))).toEqual({ op: 11, d: null, s: null, t: null });
	});

	it('regroups chunks so every one but the last has exactly the chunk size', () => {
		const sizes = (source: number[][]) => [...exactChunks(source, 3)].map((chunk) => chunk.length);
		expect(sizes([[1, 2], [3, 4, 5, 6, 7], [8]])).toEqual([3, 3, 2]);
		expect(
			sizes([
				[1, 2, 3],
				[4, 5, 6],
			]),
		).toEqual([3, 3]);
		expect(sizes([])).toEqual([]);
		expect([...exactChunks([[1, 2], [], [3, 4]], 3)].flat()).toEqual([1, 2, 3, 4]);
	});

	it('knows every documented intent bit and only the three privileged ones as privileged', () => {
		expect(KNOWN_INTENTS & GatewayIntentBits.DirectMessagePolls).not.toBe(0);
		expect(KNOWN_INTENTS & (1 << 26)).toBe(0);
		expect(KNOWN_INTENTS & (1 << 18)).toBe(0);
		expect(PRIVILEGED_INTENTS).toBe((1 << 1) | (1 << 8) | (1 << 15));
	});

	it('maps a guild to its shard with (id >> 22) % count', () => {
		// 175928847299117063 >> 22 = 41944705796, Discord's documented example id.
		expect(shardIdForGuild('175928847299117063', 5)).toBe(41944705796 % 5);
		expect(shardIdForGuild('175928847299117063', 1)).toBe(0);
		expect(shardIdForGuild('', 4)).toBe(0);
	});

	it('lets one whole-list request per app and guild through per window', () => {
		let now = 1_000;
		const limiter = new MemberRequestLimiter(30_000, () => now);
		expect(limiter.take('app1', 'g1')).toBe(0);
		now += 10_000;
		expect(limiter.take('app1', 'g1')).toBe(20_000);
		expect(limiter.take('app2', 'g1')).toBe(0);
		expect(limiter.take('app1', 'g2')).toBe(0);
		now += 20_000;
		expect(limiter.take('app1', 'g1')).toBe(0);
	});

	it('counts sends in fixed windows from the start', () => {
		let now = 0;
		const window = new SendWindow(3, 1_000, () => now);
		expect([window.record(), window.record(), window.record(), window.record()]).toEqual([true, true, true, false]);
		now = 1_000;
		expect([window.record(), window.record(), window.record()]).toEqual([true, true, true]);
	});

	describe('ReplayBuffer', () => {
		const entry = (s: number, d = 'null') => ({ s, t: 'X', d });

		it('replays what came after a sequence, oldest first', () => {
			const buffer = new ReplayBuffer(10, 1_000);
			for (let s = 1; s <= 5; s++) buffer.push(entry(s));
			expect([...buffer.after(2)].map((e) => e.s)).toEqual([3, 4, 5]);
			expect(buffer.droppedThrough).toBe(0);
		});

		it('drops the oldest entries past its count and remembers how far it dropped', () => {
			const buffer = new ReplayBuffer(3, 1_000);
			for (let s = 1; s <= 5; s++) buffer.push(entry(s));
			expect([...buffer.after(0)].map((e) => e.s)).toEqual([3, 4, 5]);
			expect(buffer.droppedThrough).toBe(2);
		});

		it('drops the oldest entries past its byte budget but keeps the newest', () => {
			const buffer = new ReplayBuffer(100, 10);
			buffer.push(entry(1, '"aaaa"'));
			buffer.push(entry(2, '"bbbb"'));
			expect([...buffer.after(0)].map((e) => e.s)).toEqual([2]);
			buffer.push(entry(3, `"${'c'.repeat(50)}"`));
			expect([...buffer.after(0)].map((e) => e.s)).toEqual([3]);
			expect(buffer.droppedThrough).toBe(2);
		});

		it('forgets everything up to a barrier', () => {
			const buffer = new ReplayBuffer(10, 1_000);
			buffer.push(entry(1));
			buffer.forgetThrough(2);
			buffer.push(entry(3));
			expect([...buffer.after(0)].map((e) => e.s)).toEqual([3]);
			expect(buffer.droppedThrough).toBe(2);
		});
	});
});
