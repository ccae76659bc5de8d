import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { IIoK8sApiCoreV1Container, IIoK8sApiCoreV1PodSpec } from 'kubernetes-models/v1';
import { ConfigMap, PersistentVolumeClaim, Secret } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config/loadConfig.js';
import { ENV_KEYS } from '../../src/config/readEnv.js';
import { readSettings } from '../../src/config/readSettings.js';
import { RunExitCodes } from '../../src/cli/runOutcome.js';

const DIR = 'deploy/kubernetes';

/** Every Kubernetes object in deploy/kubernetes, with the file it came from. */
interface Manifest {
	file: string;
	object: { apiVersion: string; kind: string; metadata: { name: string } } & Record<string, unknown>;
}

function yamlFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return yamlFiles(path);
		return /\.ya?ml$/.test(entry.name) ? [path] : [];
	});
}

const manifests: Manifest[] = yamlFiles(DIR).flatMap((path) =>
	parseAllDocuments(readFileSync(path, 'utf8')).map((document) => {
		if (document.errors.length > 0) throw new Error(`${path}: ${document.errors.map((error) => error.message).join('; ')}`);
		return { file: relative(DIR, path), object: document.toJS() as Manifest['object'] };
	}),
);

/** Kubernetes' own schemas (its OpenAPI definitions, compiled), by apiVersion and kind. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
	'v1/ConfigMap': ConfigMap,
	'v1/Secret': Secret,
	'v1/PersistentVolumeClaim': PersistentVolumeClaim,
	'apps/v1/Deployment': Deployment,
	'batch/v1/Job': Job,
};

function named<T>(kind: string, name: string): T {
	const found = manifests.find(({ object }) => object.kind === kind && object.metadata.name === name);
	if (!found) throw new Error(`no ${kind} ${name} in ${DIR}`);
	return found.object as T;
}

const env = named<{ data: Record<string, string> }>('ConfigMap', 'massnick-env').data;
const workerCount = Number(env.WORKER_COUNT);
const jobs = manifests.filter(({ object }) => object.kind === 'Job').map(({ object }) => object as unknown as Job);
const boss = named<Deployment>('Deployment', 'massnick-boss');
const podSpecs: Array<[string, IIoK8sApiCoreV1PodSpec]> = [
	['the boss', boss.spec!.template.spec!],
	...jobs.map((job): [string, IIoK8sApiCoreV1PodSpec] => [job.metadata!.name!, job.spec!.template.spec!]),
];
const massnickContainer = (spec: IIoK8sApiCoreV1PodSpec): IIoK8sApiCoreV1Container => spec.containers.find((container) => container.name === 'massnick')!;

/**
 * The manifests are checked against Kubernetes' schemas (types, enums, required fields; like the
 * API server, the schemas allow keys they do not know, so each field the design relies on is
 * asserted by name below), then against what massnick needs of them.
 */
describe('deploy/kubernetes', () => {
	it('every manifest is a Kubernetes object its schema accepts', () => {
		expect(manifests.length).toBeGreaterThanOrEqual(7);
		for (const { file, object } of manifests) {
			const Model = MODELS[`${object.apiVersion}/${object.kind}`];
			expect(Model, `${file}: ${object.apiVersion} ${object.kind}`).toBeDefined();
			expect(() => new Model!(object as never).validate(), `${file}: ${object.kind} ${object.metadata.name}`).not.toThrow();
		}
	});

	it('the example Secret holds placeholders only, never a token', () => {
		const secret = named<{ stringData: Record<string, string> }>('Secret', 'massnick-tokens');
		expect(Object.keys(secret.stringData).sort()).toEqual(['BOSS_TOKEN', 'WORKER_TOKENS']);
		for (const value of Object.values(secret.stringData)) {
			for (const part of value.split(',')) expect(part).toMatch(/^<[^>]+>$/);
		}
		expect(secret.stringData.WORKER_TOKENS!.split(',')).toHaveLength(workerCount);
	});

	it('the settings ConfigMap is a massnick.json that loads without a problem', () => {
		const settings = named<{ data: Record<string, string> }>('ConfigMap', 'massnick-settings').data['massnick.json']!;
		expect(readSettings(JSON.parse(settings), 'massnick-settings: massnick.json').problems).toEqual([]);
	});

	it('every fleet Job is Indexed, one pod per worker, retried per index, a bad command or a refusal failing its index', () => {
		expect(jobs.map((job) => job.metadata!.name)).toEqual(expect.arrayContaining(['massnick-rename', 'massnick-restore']));
		for (const job of jobs) {
			const spec = job.spec!;
			expect(spec.completionMode).toBe('Indexed');
			expect([spec.completions, spec.parallelism]).toEqual([workerCount, workerCount]);
			expect(spec.backoffLimitPerIndex).toBeGreaterThan(0);
			expect(spec.podReplacementPolicy).toBe('Failed');
			expect(spec.template.spec!.restartPolicy).toBe('Never');
			const rules = spec.podFailurePolicy!.rules;
			expect(rules).toContainEqual({ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] });
			expect(rules).toContainEqual({
				action: 'FailIndex',
				onExitCodes: { containerName: 'massnick', operator: 'In', values: [RunExitCodes.BadArguments, RunExitCodes.Refused] },
			});
			// What the same command may finish or pass on a later try is retried, never failed at once.
			const failedAtOnce = rules.filter((rule) => rule.action !== 'Ignore').flatMap((rule) => rule.onExitCodes?.values ?? []);
			for (const retried of [RunExitCodes.NotDone, RunExitCodes.Cancelled, RunExitCodes.RetryLater]) expect(failedAtOnce).not.toContain(retried);
			const container = massnickContainer(spec.template.spec!);
			expect(container.args?.[0]).toBe('run');
		}
	});

	it('each pod of a Job journals in its own folder of the shared claim, by its completion index', () => {
		const claim = named<PersistentVolumeClaim>('PersistentVolumeClaim', 'massnick-journals');
		expect(claim.spec!.accessModes).toEqual(['ReadWriteMany']);
		for (const job of jobs) {
			const spec = job.spec!.template.spec!;
			const container = massnickContainer(spec);
			const mount = container.volumeMounts!.find((each) => each.mountPath === env.MASSNICK_DATA_DIR)!;
			expect(mount.subPathExpr).toBe('worker-$(JOB_COMPLETION_INDEX)');
			expect(spec.volumes!.find((volume) => volume.name === mount.name)!.persistentVolumeClaim!.claimName).toBe('massnick-journals');
			const index = container.env!.find((each) => each.name === 'JOB_COMPLETION_INDEX')!;
			expect(index.valueFrom!.fieldRef!.fieldPath).toBe("metadata.annotations['batch.kubernetes.io/job-completion-index']");
		}
	});

	it('a pod of a Job, configured as the manifests say, holds the worker at its index, lists with the boss’s token and starts no boss', () => {
		const tokens = Array.from({ length: workerCount }, (_, i) => `MTAwMDAwMDAwMDAwMDAwMDA${i}.Gw${i}.worker-token-${'x'.repeat(20)}`);
		const secret = { BOSS_TOKEN: `MTAwMDAwMDAwMDAwMDAwMDEw.GbOs.boss-token-${'y'.repeat(20)}`, WORKER_TOKENS: tokens.join(',') };
		for (const job of jobs) {
			const container = massnickContainer(job.spec!.template.spec!);
			expect(container.envFrom).toEqual([{ configMapRef: { name: 'massnick-env' } }]);
			for (let index = 0; index < workerCount; index++) {
				const podEnv: Record<string, string> = { ...env, MASSNICK_CONFIG_DIR: '/nonexistent' };
				for (const variable of container.env!) {
					const ref = variable.valueFrom?.secretKeyRef;
					podEnv[variable.name] = ref ? secret[ref.key as keyof typeof secret] : variable.valueFrom?.fieldRef ? String(index) : variable.value!;
				}
				expect(podEnv.BOSS_TOKEN).toBeUndefined();
				const config = loadConfig({ env: podEnv, dotenvPath: false });
				expect(config.heldWorkers).toEqual([{ id: index, token: tokens[index] }]);
				expect(config.workerCount).toBe(workerCount);
				expect(config.listerToken).toBe(secret.BOSS_TOKEN);
			}
		}
	});

	it('the boss is one replica, replaced with Recreate, holding no worker but knowing every worker bot', () => {
		expect(boss.spec!.replicas).toBe(1);
		expect(boss.spec!.strategy!.type).toBe('Recreate');
		const container = massnickContainer(boss.spec!.template.spec!);
		expect(container.args).toEqual(['start']);
		expect(container.env).toContainEqual({ name: 'WORKER_IDS', value: 'none' });
		// Every worker token, read over REST at start, so the boss knows the worker bots and their role.
		expect(container.env).toContainEqual({ name: 'WORKER_TOKENS', valueFrom: { secretKeyRef: { name: 'massnick-tokens', key: 'WORKER_TOKENS' } } });
		// The journal claim's root, every pod's folder, read-only, where FLEET_JOURNALS_DIR says.
		const fleetDir = container.env!.find((each) => each.name === 'FLEET_JOURNALS_DIR')!.value!;
		const mount = container.volumeMounts!.find((each) => each.mountPath === fleetDir)!;
		expect(mount).toMatchObject({ readOnly: true });
		expect(mount.subPath ?? mount.subPathExpr).toBeUndefined();
		const volume = boss.spec!.template.spec!.volumes!.find((each) => each.name === mount.name)!;
		expect(volume.persistentVolumeClaim).toEqual({ claimName: 'massnick-journals', readOnly: true });
		expect(fleetDir).not.toBe(env.MASSNICK_DATA_DIR);
	});

	it('every pod’s probes (the boss’s, and each fleet Job’s, which runs for hours) point at /healthz and /readyz on the port its MASSNICK_METRICS_PORT serves, on every interface of the pod', () => {
		const templates = [boss.spec!.template, ...jobs.map((job) => job.spec!.template)];
		for (const template of templates) {
			const container = massnickContainer(template.spec!);
			const podEnv: Record<string, string> = {
				...env,
				MASSNICK_CONFIG_DIR: '/nonexistent',
				BOSS_TOKEN: `MTAwMDAwMDAwMDAwMDAwMDEw.GbOs.boss-token-${'y'.repeat(20)}`,
				WORKER_TOKENS: Array.from({ length: workerCount }, (_, i) => `MTAwMDAwMDAwMDAwMDAwMDA${i}.Gw${i}.worker-token-${'x'.repeat(20)}`).join(','),
			};
			for (const variable of container.env!) if (variable.value !== undefined) podEnv[variable.name] = variable.value;
			const { metrics } = loadConfig({ env: podEnv, dotenvPath: false });
			// The kubelet probes the pod's own address, never its loopback.
			expect(metrics).toEqual({ host: '0.0.0.0', port: expect.any(Number) });
			const port = (name: string | number) => (typeof name === 'number' ? name : container.ports!.find((each) => each.name === name)?.containerPort);
			expect(container.ports).toContainEqual({ name: 'metrics', containerPort: metrics!.port, protocol: 'TCP' });
			const liveness = container.livenessProbe!.httpGet!;
			const readiness = container.readinessProbe!.httpGet!;
			expect([liveness.path, port(liveness.port)]).toEqual(['/healthz', metrics!.port]);
			expect([readiness.path, port(readiness.port)]).toEqual(['/readyz', metrics!.port]);
			expect(template.metadata!.annotations).toEqual({
				'prometheus.io/scrape': 'true',
				'prometheus.io/port': String(metrics!.port),
				'prometheus.io/path': '/metrics',
			});
		}
		expect(templates).toHaveLength(1 + jobs.length);
		expect(jobs.length).toBeGreaterThan(0);
	});

	it('every pod runs non-root, on a read-only root filesystem, without capabilities, with resources set', () => {
		for (const [name, spec] of podSpecs) {
			expect(spec.securityContext, name).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } });
			expect(spec.automountServiceAccountToken, name).toBe(false);
			for (const container of spec.containers) {
				expect(container.securityContext, name).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
				expect(container.resources?.requests, name).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
				expect(container.resources?.limits?.memory, name).toEqual(expect.any(String));
			}
		}
	});

	it('every environment key the manifests set is one massnick reads', () => {
		const keys = new Set<string>(ENV_KEYS);
		for (const name of Object.keys(env)) expect(keys.has(name), name).toBe(true);
		for (const [name, spec] of podSpecs) {
			for (const variable of massnickContainer(spec).env ?? []) expect(keys.has(variable.name), `${name}: ${variable.name}`).toBe(true);
		}
	});
});
