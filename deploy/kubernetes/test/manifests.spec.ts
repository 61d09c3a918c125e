// The Kubernetes manifests, rendered as CI renders them (base defaults and every overlay): valid against the
// Kubernetes and KEDA schemas, and holding the deployment invariants docs/kubernetes.md promises.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RENDERINGS, REPO_ROOT, appNames, dataOwningServices, natsUsers, render, type K8sObject } from './render.js';
import { validateObject } from './schemas.js';
import { secretSettingNames } from './secret-settings.js';
import { unknownFields } from './unknown-fields.js';

/** Apps the manifests carry before their code lands on this branch (issue 11 adds packages-service). */
const EXPECTED_APPS = ['packages-service'];
const OPS_PORT = 9100;
/** Apps stop within this long of SIGTERM (bootstrap-service.ts forces exit; scripts/start.mjs allows 20 s). */
const APP_DRAIN_SECONDS = 15;
/** Internal HTTP endpoints only the gateway may reach. */
const GATEWAY_ONLY_PORTS: Record<string, number> = { 'repo-service': 3001, 'runners-service': 3002, 'packages-service': 3003 };
const SECRET_SETTINGS = secretSettingNames();

const byKind = (objs: K8sObject[], kind: string) => objs.filter((o) => o.kind === kind);
const podLabels = (d: K8sObject): Record<string, string> => d.spec.template.metadata.labels;
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);
const appContainer = (d: K8sObject): any => d.spec.template.spec.containers.find((c: { name: string }) => c.name === 'app');
const envValue = (d: K8sObject, name: string) =>
  appContainer(d).env?.find((e: { name: string }) => e.name === name);

describe.each(RENDERINGS)('kustomize build %s', (dir) => {
  let objs: K8sObject[];
  let deployments: K8sObject[];
  // Rendering spawns kustomize: slow on a loaded machine, so it gets the time a process needs, not a unit test's 5 s.
  beforeAll(() => {
    objs = render(dir);
    deployments = byKind(objs, 'Deployment');
  }, 120_000);

  it('every object is valid against the Kubernetes (or KEDA) schema of its kind', async () => {
    const errors: string[] = [];
    for (const obj of objs) await validateObject(obj).catch((err: Error) => errors.push(err.message));
    expect(errors).toEqual([]);
  });

  // The TypeScript checker loads the models' declarations: seconds, not milliseconds.
  it('uses no field the Kubernetes (or KEDA) API does not know', { timeout: 60_000 }, () => {
    expect(unknownFields(objs)).toEqual([]);
  });

  it('has one Deployment per app, each running its app from the one image', () => {
    const apps = [...new Set([...appNames(), ...EXPECTED_APPS])].sort();
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(apps);
    const images = new Set(deployments.map((d) => appContainer(d).image));
    expect(images.size).toBe(1);
    for (const d of deployments) expect(appContainer(d).args, d.metadata.name).toEqual([d.metadata.name]);
  });

  it('runs one migration per data-owning service, as an init container before the app', () => {
    const migrations = deployments.flatMap((d) =>
      (d.spec.template.spec.initContainers ?? []).map((c: { args: string[]; image: string }) => {
        expect(c.args.slice(0, 2), d.metadata.name).toEqual(['migrate', '--service']);
        expect(c.image).toBe(appContainer(d).image);
        return { service: c.args[2], deployment: d.metadata.name };
      }),
    );
    const services = [...new Set([...dataOwningServices(), 'packages'])].sort();
    expect(migrations.map((m) => m.service).sort()).toEqual(services);
    for (const m of migrations) expect(m.deployment).toBe(`${m.service}-service`);
  });

  it('gives every Deployment probes on the ops endpoint, requests and limits, and a non-root, read-only pod', () => {
    for (const d of deployments) {
      const name = d.metadata.name;
      const pod = d.spec.template.spec;
      const c = appContainer(d);
      expect(c.ports.find((p: { name: string }) => p.name === 'ops')?.containerPort, name).toBe(OPS_PORT);
      expect(envValue(d, 'CAIRN__OPS__HOST')?.value, name).toBe('0.0.0.0');
      expect(envValue(d, 'CAIRN__OPS__PORT')?.value, name).toBe(String(OPS_PORT));
      expect(c.livenessProbe?.httpGet, name).toEqual({ path: '/livez', port: 'ops' });
      expect(c.readinessProbe?.httpGet, name).toEqual({ path: '/readyz', port: 'ops' });
      for (const box of [c, ...(pod.initContainers ?? [])]) {
        expect(box.resources?.requests?.cpu, `${name}/${box.name}`).toBeDefined();
        expect(box.resources?.requests?.memory, `${name}/${box.name}`).toBeDefined();
        expect(box.resources?.limits?.memory, `${name}/${box.name}`).toBeDefined();
        expect(box.securityContext, `${name}/${box.name}`).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect(box.volumeMounts.find((m: { mountPath: string }) => m.mountPath === '/tmp')?.name, name).toBe('tmp');
      }
      expect(pod.securityContext.runAsNonRoot, name).toBe(true);
      expect(pod.securityContext.runAsUser, name).toBeGreaterThan(0);
      expect(pod.volumes.find((v: { name: string }) => v.name === 'tmp')?.emptyDir, name).toBeDefined();
      expect(pod.automountServiceAccountToken, name).toBe(false);
    }
  });

  it('gives the apps time to drain: grace period ≥ preStop pause + the apps’ own shutdown bound', () => {
    for (const d of deployments) {
      const [cmd, seconds] = appContainer(d).lifecycle.preStop.exec.command;
      expect(cmd).toBe('sleep');
      expect(d.spec.template.spec.terminationGracePeriodSeconds, d.metadata.name).toBeGreaterThanOrEqual(
        Number(seconds) + APP_DRAIN_SECONDS,
      );
    }
  });

  it('gives every Deployment a PodDisruptionBudget that does not block a drain by itself', () => {
    for (const d of deployments) {
      const pdbs = byKind(objs, 'PodDisruptionBudget').filter((p) => selects(p.spec.selector.matchLabels, podLabels(d)));
      expect(pdbs.length, d.metadata.name).toBe(1);
      const pdb = pdbs[0]!.spec;
      const replicas = d.spec.replicas ?? 1;
      if (pdb.minAvailable !== undefined) expect(pdb.minAvailable, d.metadata.name).toBeLessThan(replicas);
      else expect(pdb.maxUnavailable, d.metadata.name).toBeGreaterThanOrEqual(1);
    }
  });

  it('denies by default and lets only the gateway reach the internal endpoints; Prometheus reaches ops', () => {
    const policies = byKind(objs, 'NetworkPolicy');
    for (const d of deployments) {
      const mine = policies.filter((p) => selects(p.spec.podSelector.matchLabels ?? {}, podLabels(d)));
      const denyAll = mine.find((p) => !p.spec.ingress && !p.spec.egress);
      expect(denyAll?.spec.policyTypes, d.metadata.name).toEqual(['Ingress', 'Egress']);
      const ingress = mine.flatMap((p) => p.spec.ingress ?? []);
      const opsRule = ingress.find((r) => r.ports?.some((p: { port: number }) => p.port === OPS_PORT));
      expect(opsRule?.from?.[0]?.namespaceSelector, d.metadata.name).toBeDefined();
      const internal = GATEWAY_ONLY_PORTS[d.metadata.name];
      if (internal) {
        const rules = ingress.filter((r) => !r.ports || r.ports.some((p: { port: number }) => p.port === internal));
        expect(rules.length, d.metadata.name).toBe(1);
        expect(rules[0].from, d.metadata.name).toEqual([
          { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'cairn', 'app.kubernetes.io/component': 'gateway' } } },
        ]);
      }
      const egressPorts = mine.flatMap((p) => (p.spec.egress ?? []).flatMap((r: { ports?: { port: number }[] }) => r.ports ?? []));
      for (const port of [4222, 5432, 6379]) expect(egressPorts.map((p) => p.port), d.metadata.name).toContain(port);
    }
  });

  it('keeps secret settings out of ConfigMaps and literal env values', () => {
    for (const cm of byKind(objs, 'ConfigMap')) {
      for (const key of Object.keys(cm.data ?? {})) expect(SECRET_SETTINGS, `${cm.metadata.name}: ${key}`).not.toContain(key);
    }
    for (const d of deployments) {
      for (const c of [...d.spec.template.spec.containers, ...(d.spec.template.spec.initContainers ?? [])]) {
        for (const e of c.env ?? []) {
          if (SECRET_SETTINGS.includes(e.name)) expect(e.valueFrom?.secretKeyRef, `${d.metadata.name}: ${e.name}`).toBeDefined();
        }
      }
    }
    expect(SECRET_SETTINGS).toEqual(expect.arrayContaining(['CAIRN__SECURITY__INTERNAL_TOKEN', 'CAIRN__SECURITY__SECRET_KEY']));
  });

  it('lets every CAIRN__ setting be set: each app loads the settings ConfigMap and the secrets Secret whole', () => {
    for (const d of deployments) {
      const from = appContainer(d).envFrom;
      expect(from.some((f: { configMapRef?: { name: string } }) => f.configMapRef?.name.startsWith('cairn-settings'))).toBe(true);
      expect(from.some((f: { secretRef?: { name: string } }) => f.secretRef?.name.startsWith('cairn-secrets'))).toBe(true);
    }
  });

  it('logs every app in to NATS as its own user of deploy/nats/accounts.conf', () => {
    const users = natsUsers();
    const present = appNames();
    const seen = new Set<string>();
    for (const d of deployments) {
      const user = envValue(d, 'CAIRN__NATS__USER')?.value as string;
      expect(envValue(d, 'CAIRN__NATS__PASSWORD')?.valueFrom?.secretKeyRef?.key, d.metadata.name).toBe(user);
      if (present.includes(d.metadata.name)) expect(users, d.metadata.name).toContain(user);
      expect(seen.has(user), user).toBe(false);
      seen.add(user);
    }
  });

  it('points every Service port at a named port of the pods it selects', () => {
    for (const svc of byKind(objs, 'Service')) {
      const targets = deployments.filter((d) => selects(svc.spec.selector, podLabels(d)));
      expect(targets.length, svc.metadata.name).toBe(1);
      const names = appContainer(targets[0]!).ports.map((p: { name: string }) => p.name);
      for (const port of svc.spec.ports) expect(names, `${svc.metadata.name}:${port.name}`).toContain(port.targetPort);
    }
  });

  it('agrees with itself: the settings name the Services and ports the pods listen on', () => {
    const settings = byKind(objs, 'ConfigMap').find((c) => c.metadata.name.startsWith('cairn-settings'))!.data as Record<string, string>;
    const service = (name: string) => byKind(objs, 'Service').find((s) => s.metadata.name === name)!;
    const containerPort = (app: string, port: string) =>
      appContainer(deployments.find((d) => d.metadata.name === app)!).ports.find((p: { name: string }) => p.name === port)?.containerPort;
    for (const [key, app] of [['REPO', 'repo-service'], ['RUNNERS', 'runners-service'], ['PACKAGES', 'packages-service']] as const) {
      const url = new URL(settings[`CAIRN__CAIRN__${key}_INTERNAL_URL`]!);
      const port = Number(settings[`CAIRN__CAIRN__${key}_INTERNAL_PORT`]);
      expect(url.hostname, key).toBe(app);
      expect(service(app).spec.ports.find((p: { name: string }) => p.name === 'internal')?.port, key).toBe(Number(url.port));
      expect(containerPort(app, 'internal'), key).toBe(port);
    }
    expect(containerPort('gateway', 'http')).toBe(Number(settings.CAIRN__SERVER__HTTP_PORT));
    // SSH_PORT is both the port repo-service binds and the one clone URLs show: the load balancer must expose it.
    const sshPort = Number(settings.CAIRN__SERVER__SSH_PORT);
    expect(containerPort('repo-service', 'ssh')).toBe(sshPort);
    expect(service('ssh').spec.ports[0].port).toBe(sshPort);
    expect(settings.CAIRN__REPOSITORY__ROOT).toMatch(/^\/data\//);
  });

  it('autoscales the gateway with an HPA and merge-check-worker on queue depth down to zero', () => {
    const hpas = byKind(objs, 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.spec.scaleTargetRef.name)).toEqual(['gateway']);
    const [scaled] = byKind(objs, 'ScaledObject');
    expect(scaled?.spec.scaleTargetRef.name).toBe('merge-check-worker');
    expect(scaled?.spec.minReplicaCount).toBe(0);
    // Without Prometheus the queue depth is unknown: a fallback keeps workers running.
    expect(scaled?.spec.fallback?.replicas).toBeGreaterThan(0);
    const query: string = scaled?.spec.triggers[0].metadata.query;
    expect(query).toContain('queue="merge-check"');
    expect(query).toMatch(/prioritized/);
    const worker = deployments.find((d) => d.metadata.name === 'merge-check-worker')!;
    expect(byKind(objs, 'HorizontalPodAutoscaler').some((h) => h.spec.scaleTargetRef.name === worker.metadata.name)).toBe(false);
  });

  it('shares the repositories volume (ReadWriteMany) between repo-service and merge-check-worker', () => {
    const pvc = byKind(objs, 'PersistentVolumeClaim').find((p) => p.metadata.name === 'repositories');
    expect(pvc?.spec.accessModes).toEqual(['ReadWriteMany']);
    const users = deployments.filter((d) =>
      d.spec.template.spec.volumes.some((v: { persistentVolumeClaim?: { claimName: string } }) => v.persistentVolumeClaim?.claimName === 'repositories'),
    );
    expect(users.map((d) => d.metadata.name).sort()).toEqual(['merge-check-worker', 'repo-service']);
  });
});

describe('kustomize build overlays/object-storage', () => {
  let objs: K8sObject[];
  beforeAll(() => {
    objs = render('overlays/object-storage');
  }, 120_000);

  it('puts package blobs and attachments in the object store: S3 settings, credentials from a Secret, the volume only for chunked uploads', () => {
    const settings = byKind(objs, 'ConfigMap').find((c) => c.metadata.name.startsWith('cairn-settings'))!.data;
    expect(settings.CAIRN__STORAGE__STORAGE_TYPE).toBe('minio');
    expect(settings.CAIRN__STORAGE__MINIO_ENDPOINT).toMatch(/^[\w.-]+:\d+$/);
    for (const app of ['packages-service', 'repo-service']) {
      const deployment = byKind(objs, 'Deployment').find((d) => d.metadata.name === app)!;
      for (const name of ['CAIRN__STORAGE__MINIO_ACCESS_KEY_ID', 'CAIRN__STORAGE__MINIO_SECRET_ACCESS_KEY']) {
        expect(envValue(deployment, name)?.valueFrom?.secretKeyRef?.name, `${app} ${name}`).toBe('cairn-object-storage');
      }
    }
    // Past the base's default deny, exactly the services keeping blobs reach the endpoint's port.
    const port = Number(settings.CAIRN__STORAGE__MINIO_ENDPOINT.split(':')[1]);
    const policy = byKind(objs, 'NetworkPolicy').find((p) => p.metadata.name === 'object-storage')!;
    expect(policy.spec.podSelector.matchExpressions[0].values.sort()).toEqual(['packages-service', 'repo-service']);
    expect(policy.spec.egress[0].ports).toEqual([{ port, protocol: 'TCP' }]);
    const pvc = byKind(objs, 'PersistentVolumeClaim').find((p) => p.metadata.name === 'packages');
    expect(pvc?.spec.resources.requests.storage).toBe('5Gi');
  });
});

describe('Dockerfile', () => {
  it('installs the dependencies of every app and library (their package.json files are copied before npm ci)', () => {
    const dockerfile = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
    for (const app of appNames()) expect(dockerfile).toContain(`COPY apps/${app}/package.json apps/${app}/`);
  });
});
