import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fleetJournalsSection } from '../../../src/doctor/fleetJournalsSection.js';
import { Journal } from '../../../src/jobs/journal/Journal.js';
import { FLEET_GUILD, fleetHeader } from '../../support/fleetJournals.js';

let volume: string;
beforeEach(() => {
	volume = mkdtempSync(join(tmpdir(), 'massnick-doctor-fleet-'));
});
afterEach(() => {
	rmSync(volume, { recursive: true, force: true });
});

describe('the doctor’s section on FLEET_JOURNALS_DIR', () => {
	it('is left out when the key is unset', async () => {
		expect(await fleetJournalsSection({ fleetJournalsDir: undefined, guildId: FLEET_GUILD })()).toEqual([]);
	});

	it("lists the fleet's jobs as /status finds them, with each worker's part", async () => {
		const { type: _type, version: _version, ...input } = fleetHeader('pod0', { workers: 2, startedAt: '2026-11-30T10:00:00.000Z' });
		await (await Journal.create(join(volume, 'worker-0'), input, { workerId: 0 })).close();
		const lines = await fleetJournalsSection({ fleetJournalsDir: volume, guildId: FLEET_GUILD })();
		expect(lines[0]).toContain(`FLEET_JOURNALS_DIR=${volume}, read-only`);
		expect(lines[1]).toBe('  Renaming to “Fleet {username}”, by alice 2026-11-30, 2 workers: 0 running; 1 not started');
	});

	it('says plainly when the folder cannot be read', async () => {
		const lines = await fleetJournalsSection({ fleetJournalsDir: join(volume, 'not-mounted'), guildId: FLEET_GUILD })();
		expect(lines[1]).toMatch(/^ {2}! The fleet's journals \(FLEET_JOURNALS_DIR=.*not-mounted\) cannot be read \(ENOENT\): mount the volume/);
	});
});
