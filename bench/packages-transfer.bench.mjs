// A 200 MiB generic package file uploaded and downloaded through the whole stack (curl → gateway → packages-service
// → blob store, and back) against the issue's floors, measured in the same run with the same curl commands against a
// bare Node.js HTTP server: for local storage, a handler that streams the file (download) and one that receives it
// into a file while computing Gitea's four digests (upload); for `--storage minio`, a handler that streams a plain
// `GetObject` and one that hands the request to a `@aws-sdk/lib-storage` upload. `cp` and `cat` are printed too, as
// what the disk alone does. Rounds alternate ours and the floors; medians are compared; nothing asserts on time.
// Targets: download and upload ≤ 1.5 × their floors. Also prints the peak RSS (VmHWM) of the gateway and
// packages-service before and after the transfers.
//
// Each round stores new bytes (the file's first byte changes), so no round finds its blob already stored. With
// `--serve-direct` (MinIO only) downloads are answered with a redirect to a presigned URL, which curl follows.
//
//   npm run build && node bench/packages-transfer.bench.mjs [--mib 200] [--rounds 3] [--storage local|minio] [--serve-direct]
//     [--node-options '--max-semi-space-size=4']   (NODE_OPTIONS of every app in the suite)
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { CreateBucketCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ensureClient } from '../scripts/clients.mjs';
import { minioStorageEnv, runMinio } from '../scripts/clients/minio.mjs';
import { benchRun, freePorts, postJson, say, startProdBenchSuite } from './suite-bench-support.mjs';

const { values: opts } = parseArgs({
  options: {
    mib: { type: 'string', default: process.env.BENCH_MIB ?? '200' },
    rounds: { type: 'string', default: process.env.BENCH_ROUNDS ?? '3' },
    storage: { type: 'string', default: process.env.BENCH_STORAGE ?? 'local' },
    'serve-direct': { type: 'boolean', default: false },
    'node-options': { type: 'string', default: '' },
  },
});

/** A MinIO server for the run and an S3 client on it (the suite's bucket `cairn`, the floors' own `floor`). */
async function startObjectStorage(run) {
  const { bin } = await ensureClient('minio', { log: say });
  const [port, consolePort] = await freePorts(2);
  const credentials = { accessKeyId: `bench${randomBytes(4).toString('hex')}`, secretAccessKey: randomBytes(18).toString('base64url') };
  const dataDir = path.join(run.dataDir, 'minio');
  mkdirSync(dataDir);
  const minio = await runMinio({ bin, dataDir, port, consolePort, ...credentials });
  const client = new S3Client({ endpoint: `http://${minio.endpoint}`, region: 'us-east-1', forcePathStyle: true, credentials });
  await client.send(new CreateBucketCommand({ Bucket: 'floor' }));
  return {
    env: { ...minioStorageEnv(minio.endpoint, credentials, 'cairn'), ...(opts['serve-direct'] ? { CAIRN__STORAGE__SERVE_DIRECT: 'true' } : {}) },
    client,
    async stop() {
      client.destroy();
      await minio.stop();
    },
  };
}

/**
 * The floors' server: the least a Node.js HTTP handler does for the same transfer. `PUT /` receives into a file with
 * md5, sha1, sha256 and sha512 computed alongside (what packages-service keeps); `GET /` streams `source`. With `s3`,
 * `PUT /` is a lib-storage upload of the request and `GET /` a `GetObject` streamed out.
 */
async function startFloorServer(source, received, s3) {
  const server = createServer((req, res) => {
    const fail = (err) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
      else res.destroy();
    };
    // `?digests`: Gitea's four digests computed alongside, as packages-service must.
    const hashes = req.url.includes('digests') ? ['md5', 'sha1', 'sha256', 'sha512'].map((a) => createHash(a)) : [];
    req.on('data', (chunk) => hashes.forEach((h) => h.update(chunk)));
    if (req.method === 'PUT' && s3) {
      const upload = new Upload({ client: s3.client, params: { Bucket: 'floor', Key: 'file', Body: req }, partSize: 8 * 1024 * 1024, queueSize: 4 });
      upload.done().then(() => {
        hashes.forEach((h) => h.digest('hex'));
        res.writeHead(201).end();
      }, fail);
    } else if (req.method === 'PUT') {
      pipeline(req, createWriteStream(received)).then(() => {
        hashes.forEach((h) => h.digest('hex'));
        res.writeHead(201).end();
      }, fail);
    } else if (s3) {
      s3.client.send(new GetObjectCommand({ Bucket: 'floor', Key: 'file' })).then((answer) => {
        res.writeHead(200, { 'content-length': answer.ContentLength, 'content-type': 'application/octet-stream' });
        return pipeline(answer.Body, res);
      }).catch(fail);
    } else {
      res.writeHead(200, { 'content-length': statSync(source).size, 'content-type': 'application/octet-stream' });
      pipeline(createReadStream(source), res).catch(fail);
    }
  });
  const [port] = await freePorts(1);
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Runs a command (argument vector; stdout to `stdoutFile` when given) and resolves with its duration in ms. */
function timed(cmd, args, stdoutFile) {
  return new Promise((resolve, reject) => {
    const out = stdoutFile ? openSync(stdoutFile, 'w') : 'ignore';
    const started = process.hrtime.bigint();
    const child = spawn(cmd, args, { stdio: ['ignore', out, 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.once('close', (code) => {
      if (typeof out === 'number') closeSync(out);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code === 0) resolve(ms);
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`));
    });
  });
}

/** curl with a check of the HTTP status it reports. */
async function curlTimed(args, expected) {
  const started = process.hrtime.bigint();
  const status = await new Promise((resolve, reject) => {
    const child = spawn('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('close', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`curl failed: ${err}`))));
  });
  if (status !== expected) throw new Error(`curl ${args.at(-1)} answered ${status}, expected ${expected}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** A process's peak and current resident memory in MiB (Linux /proc). */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { peak: kib('VmHWM') / 1024, now: kib('VmRSS') / 1024 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  const mib = Number(opts.mib);
  const rounds = Number(opts.rounds);
  const run = benchRun('cairn-bench-packages');
  const { dataDir } = run;
  if (opts['serve-direct'] && opts.storage !== 'minio') throw new Error('--serve-direct needs --storage minio');
  const s3 = opts.storage === 'minio' ? await startObjectStorage(run) : null;
  try {
    const nodeOptions = opts['node-options'] ? { NODE_OPTIONS: opts['node-options'] } : {};
    const { suite, adminName, adminBasic } = await startProdBenchSuite(run, { ...s3?.env, ...nodeOptions });
    const { sha1: token } = await postJson(`${suite.baseUrl}/api/v1/users/${adminName}/tokens`, adminBasic, {
      name: 'bench', scopes: ['write:package'],
    });
    const pids = Object.fromEntries(suite.apps.filter((a) => ['gateway', 'packages-service'].includes(a.name)).map((a) => [a.name, a.pid]));

    say(`writing a ${mib} MiB file`);
    const source = path.join(dataDir, 'source.bin');
    const fd = openSync(source, 'w');
    const block = randomBytes(1024 * 1024);
    for (let i = 0; i < mib; i++) writeSync(fd, block.map((b) => b ^ i));
    closeSync(fd);
    const copy = path.join(dataDir, 'copy.bin');
    const downloaded = path.join(dataDir, 'downloaded.bin');
    const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, memory(pid)]));

    const floor = await startFloorServer(source, copy, s3);
    const times = { upload: [], download: [], floorUpload: [], floorUploadHashed: [], floorDownload: [], cp: [], cat: [] };
    for (let r = 0; r < rounds; r++) {
      say(`round ${r + 1}/${rounds}`);
      const url = `${suite.baseUrl}/api/packages/${adminName}/generic/bench/${r + 1}/source.bin`;
      const first = openSync(source, 'r+');
      writeSync(first, Buffer.from([r]), 0, 1, 0);
      closeSync(first);
      times.upload.push(await curlTimed(['-H', `Authorization: token ${token}`, '--upload-file', source, url], 201));
      times.floorUpload.push(await curlTimed(['--upload-file', source, s3 ? floor.url : `${floor.url}?digests`], 201));
      if (s3) times.floorUploadHashed.push(await curlTimed(['--upload-file', source, `${floor.url}?digests`], 201));
      rmSync(copy, { force: true });
      times.cp.push(await timed('cp', [source, copy]));
      rmSync(copy, { force: true });
      times.download.push(await curlTimed([...(opts['serve-direct'] ? ['-L'] : []), '-o', downloaded, url], 200));
      rmSync(downloaded, { force: true });
      times.floorDownload.push(await curlTimed(['-o', downloaded, floor.url], 200));
      rmSync(downloaded, { force: true });
      times.cat.push(await timed('cat', [source], downloaded));
      rmSync(downloaded, { force: true });
    }
    await floor.close();
    const after = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, memory(pid)]));

    const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
    const rate = (ms) => `${((mib / ms) * 1000).toFixed(0)} MiB/s`;
    const floorName = s3 ? { up: 'handler → lib-storage upload to MinIO', down: 'handler ← GetObject from MinIO' } : { up: 'handler → file, four digests', down: 'handler streaming the file' };
    console.log(`packages transfer, ${mib} MiB generic file, median of ${rounds} rounds, ${opts.storage} storage${opts['serve-direct'] ? ', SERVE_DIRECT' : ''}`);
    console.log(`  upload   (curl → gateway → packages-service)  ${fmt(m.upload)}  ${rate(m.upload)}`);
    console.log(`  floor    curl → ${floorName.up.padEnd(36)} ${fmt(m.floorUpload)}  ${rate(m.floorUpload)}`);
    if (s3) console.log(`  floor    curl → the same, four digests alongside    ${fmt(m.floorUploadHashed)}  ${rate(m.floorUploadHashed)}`);
    console.log(`  disk     cp                                  ${fmt(m.cp)}  ${rate(m.cp)}`);
    console.log(`  download (packages-service → gateway → curl)  ${fmt(m.download)}  ${rate(m.download)}`);
    console.log(`  floor    curl ← ${floorName.down.padEnd(36)} ${fmt(m.floorDownload)}  ${rate(m.floorDownload)}`);
    console.log(`  disk     cat > file                          ${fmt(m.cat)}  ${rate(m.cat)}`);
    console.log(`  ratio upload/floor = ${(m.upload / m.floorUpload).toFixed(2)} (target ≤ 1.5)${s3 ? `, upload/(floor with digests) = ${(m.upload / m.floorUploadHashed).toFixed(2)}` : ''}`);
    console.log(`  ratio download/floor = ${(m.download / m.floorDownload).toFixed(2)} (target ≤ 1.5)`);
    const spread = (xs) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
    console.log(`  spread: upload ${spread(times.upload)}, download ${spread(times.download)}, floors ${spread(times.floorUpload)} / ${spread(times.floorDownload)}`);
    for (const name of Object.keys(pids)) {
      console.log(
        `  ${name.padEnd(17)} peak RSS ${before[name].peak.toFixed(0)} MiB before, ${after[name].peak.toFixed(0)} MiB after` +
          ` ${rounds * 2} transfers of ${mib} MiB (current ${after[name].now.toFixed(0)} MiB)`,
      );
    }
  } finally {
    await run.cleanup();
    await s3?.stop();
  }
}

await main();
