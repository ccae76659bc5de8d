import type { Client } from 'discord.js';
import type { Logger } from 'pino';
import type { MetricsSettings } from '../config/index.js';
import { whyNotReady } from '../discord/whyNotReady.js';
import { HealthServer } from './HealthServer.js';
import { MassnickMetrics, type MetricsSource } from './MassnickMetrics.js';

/** What readiness and the gauges read of a started massnick: its jobs, its fleet and its boss's client. */
export interface HealthSource extends MetricsSource {
	readonly boss: { readonly client: Client };
}

/**
 * `massnick start`'s health checks and metrics, served before the boss logs in: not ready while
 * it starts, ready while the boss is logged in and the guild reachable, not ready again once it
 * stops. `/healthz` answers throughout. `massnick run` serves the same, ready as its job says
 * (see {@link serving}).
 */
export class ServiceHealth {
	readonly metrics: MassnickMetrics;
	readonly #server: HealthServer;
	#why: () => string | undefined;

	private constructor(metrics: MassnickMetrics, server: HealthServer, starting: string) {
		this.metrics = metrics;
		this.#server = server;
		this.#why = () => starting;
	}

	/**
	 * Listens where `settings` say, not ready until {@link running} (or {@link serving}); till
	 * then `/readyz` says `starting`.
	 *
	 * @throws {ConfigError} when the address cannot be had (see `HealthServer.listen`).
	 */
	static async serve(settings: MetricsSettings, logger: Logger, starting = 'starting: the boss has not logged in yet'): Promise<ServiceHealth> {
		let health: ServiceHealth | undefined;
		const metrics = new MassnickMetrics(() => health?.whyNotReady() === undefined);
		const server = await HealthServer.listen(
			settings,
			{
				whyNotReady: () => health?.whyNotReady(),
				metrics: async () => ({ contentType: metrics.contentType, body: await metrics.text() }),
			},
			logger.child({ component: 'health' }),
		);
		health = new ServiceHealth(metrics, server, starting);
		return health;
	}

	/** Where it listens: `http://127.0.0.1:9464`. */
	get url(): string {
		return this.#server.url;
	}

	/** Why `/readyz` answers 503 now, or `undefined` when it answers 200. */
	whyNotReady(): string | undefined {
		return this.#why();
	}

	/** Give it the massnick `startMassnick` started: ready from now on while its boss can serve `guildId`. */
	running(massnick: HealthSource, guildId: string): void {
		const { client } = massnick.boss;
		this.serving(massnick, () => whyNotReady(client, guildId, 'the boss'));
	}

	/** What the gauges read from now on, and what says whether it is ready (`undefined`) or why not. */
	serving(source: MetricsSource, whyNotReady: () => string | undefined): void {
		this.metrics.attach(source);
		this.#why = whyNotReady;
	}

	/** A shutdown began: not ready, whatever the boss says. */
	stopping(): void {
		this.#why = () => 'stopping';
	}

	close(): Promise<void> {
		return this.#server.close();
	}
}
