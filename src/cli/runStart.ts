import { loadConfig, secretsOf } from '../config/index.js';
import { ServiceHealth } from '../health/index.js';
import { createLogger } from '../log/createLogger.js';
import { type Massnick, startMassnick } from '../startMassnick.js';

/** How long a shutdown may take before the process exits anyway. */
const SHUTDOWN_DEADLINE_MS = 10_000;

/**
 * `npm start`: loads and checks the configuration, serves the health checks and metrics when
 * `MASSNICK_METRICS_PORT` is set (before the login, so a probe sees the start), starts the boss
 * and the workers, resumes the job a restart interrupted (`jobs.resumeOnStart`), and on SIGINT
 * or SIGTERM stops the running job, lets requests on the wire finish, closes the journal
 * (`stopped`, so the next start resumes it) and exits 0 within 10 seconds.
 */
export async function runStart(): Promise<void> {
	const config = loadConfig();
	const logger = createLogger({ level: config.logLevel, format: config.logFormat, secrets: secretsOf(config) });
	const health = config.metrics && (await ServiceHealth.serve(config.metrics, logger));
	let massnick: Massnick;
	try {
		massnick = await startMassnick(config, logger, { observeJobs: health ? health.metrics.watchJob : undefined });
	} catch (error) {
		// The server would keep the process alive after a failed start.
		await health?.close();
		throw error;
	}
	health?.running(massnick, config.guildId);
	let stopping = false;
	const shutdown = (signal: NodeJS.Signals): void => {
		if (stopping) return;
		stopping = true;
		health?.stopping();
		logger.info({ signal }, 'shutting down');
		const deadline = setTimeout(() => {
			logger.error('shutdown took longer than 10 s; exiting');
			process.exit(1);
		}, SHUTDOWN_DEADLINE_MS);
		deadline.unref();
		void massnick
			.stop()
			.then(() => health?.close())
			.then(() => {
				logger.info('stopped cleanly');
				logger.flush();
				process.exit(0);
			});
	};
	process.on('SIGINT', shutdown);
	process.on('SIGTERM', shutdown);
	// After the handlers: a stop during the resume still closes the journal cleanly.
	try {
		await massnick.resume();
	} catch (error) {
		logger.error({ err: error }, 'could not resume the interrupted job; run the same command again to finish it');
	}
}
