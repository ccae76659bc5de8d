/**
 * One process of a fleet, as a pod of a Kubernetes Indexed Job runs it: no boss, the workers of
 * its `JOB_COMPLETION_INDEX` (or `WORKER_IDS`), one job, then exit. What `massnick run` does in a
 * pod, driven through `startMassnick` and the `JobManager` directly.
 *
 *   node --import tsx test/support/fleetProcess.ts massnick '<template>'
 *   node --import tsx test/support/fleetProcess.ts restore
 *
 * The environment configures it as it does massnick. The last line on stdout is a JSON object
 * with `msg: 'fleet job ended'`, the job's state and its counts; the exit code is 0 when the job
 * finished, 1 otherwise.
 */
import { parseNicknameAction } from '../../src/actions/nickname/parseNicknameAction.js';
import { loadConfig } from '../../src/config/loadConfig.js';
import { secretsOf } from '../../src/config/redactTokens.js';
import { createLogger } from '../../src/log/createLogger.js';
import { OPERATOR } from '../../src/jobs/RequesterRank.js';
import { startMassnick } from '../../src/startMassnick.js';

const [kind, name] = process.argv.slice(2);
const config = loadConfig({ dotenvPath: false });
const logger = createLogger({ level: config.logLevel, format: 'json', secrets: secretsOf(config) });
const massnick = await startMassnick(config, logger, { boss: false });
const startedBy = { id: '0', tag: 'fleet-test' };
const job =
	kind === 'restore'
		? (await massnick.jobs.startRestore({ dryRun: false, startedBy, rank: OPERATOR })).job
		: await massnick.jobs.startJob(parseNicknameAction(name!, config.nickname.maxLength), { dryRun: false, startedBy, rank: OPERATOR });
logger.info({ job: job.id, journal: massnick.jobs.runOf(job)?.journalPaths ?? [] }, 'fleet job started');
const result = await job.ended();
await massnick.stop();
const { total, elsewhere, changed, alreadyDone, cant, skipped, left, failed } = job.progress.snapshot();
logger.info({ state: result.state, total, elsewhere, changed, alreadyDone, cant, skipped, left, failed }, 'fleet job ended');
process.exit(result.state === 'finished' ? 0 : 1);
