// A 200 MiB generic package file uploaded and downloaded through the whole stack (curl → gateway → packages-service
// → blob store, and back) against floors measured in the same run on the same file: `cp` (and `dd conv=fsync`, a
// copy that is durable like a stored blob) for the upload, `cat` into a file for the download. Rounds alternate
// ours and the floors; medians are compared. Also prints the peak RSS (VmHWM) of the gateway and packages-service
// before and after the transfers, to show that memory stays flat whatever the file size. Nothing asserts on time.
// Targets: download ≤ 1.5 × cat, upload ≤ 2 × cp. Two more floors show what the path itself adds: for the upload,
// `cp` with the four digests Gitea keeps computed beside it (md5sum, sha1sum, sha256sum, sha512sum and cp started
// together, wall time: the least any store keeping those digests can take), and for the download, curl reading the
// file itself (`curl file://… -o`: the client's own cost, without the services).
// With `--storage minio` the suite keeps its blobs on a MinIO server started here (`[storage] STORAGE_TYPE = minio`),
// and the floors are what the AWS SDK alone does against the same server: a `@aws-sdk/lib-storage` upload of the
// file and a `GetObject` streamed into a file.
//
//   npm run build && node bench/packages-transfer.bench.mjs [--mib 200] [--rounds 3] [--storage local|minio]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
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
    env: minioStorageEnv(minio.endpoint, credentials, 'cairn'),
    async upload(file) {
      const started = process.hrtime.bigint();
      await new Upload({ client, params: { Bucket: 'floor', Key: 'file', Body: createReadStream(file) }, partSize: 8 * 1024 * 1024, queueSize: 4 }).done();
      return Number(process.hrtime.bigint() - started) / 1e6;
    },
    async download(file) {
      const started = process.hrtime.bigint();
      const answer = await client.send(new GetObjectCommand({ Bucket: 'floor', Key: 'file' }));
      await pipeline(answer.Body, createWriteStream(file));
      return Number(process.hrtime.bigint() - started) / 1e6;
    },
    async stop() {
      client.destroy();
      await minio.stop();
    },
  };
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
  const s3 = opts.storage === 'minio' ? await startObjectStorage(run) : null;
  try {
    const { suite, adminName, adminBasic } = await startProdBenchSuite(run, s3?.env ?? {});
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

    const times = { upload: [], download: [], cp: [], cpHashed: [], ddSync: [], cat: [], curlFile: [], s3Upload: [], s3Download: [] };
    const together = async (commands) => {
      const started = process.hrtime.bigint();
      await Promise.all(commands.map(([cmd, args]) => timed(cmd, args)));
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    for (let r = 0; r < rounds; r++) {
      say(`round ${r + 1}/${rounds}`);
      const url = `${suite.baseUrl}/api/packages/${adminName}/generic/bench/${r + 1}/source.bin`;
      times.upload.push(await curlTimed(['-H', `Authorization: token ${token}`, '--upload-file', source, url], 201));
      times.cp.push(await timed('cp', [source, copy]));
      rmSync(copy, { force: true });
      times.cpHashed.push(await together([['cp', [source, copy]], ...['md5sum', 'sha1sum', 'sha256sum', 'sha512sum'].map((c) => [c, [source]])]));
      rmSync(copy, { force: true });
      times.ddSync.push(await timed('dd', [`if=${source}`, `of=${copy}`, 'bs=1M', 'conv=fsync', 'status=none']));
      rmSync(copy, { force: true });
      times.download.push(await curlTimed(['-o', downloaded, url], 200));
      rmSync(downloaded, { force: true });
      times.cat.push(await timed('cat', [source], downloaded));
      rmSync(downloaded, { force: true });
      times.curlFile.push(await timed('curl', ['-sS', '-o', downloaded, `file://${source}`]));
      rmSync(downloaded, { force: true });
      if (s3) {
        times.s3Upload.push(await s3.upload(source));
        times.s3Download.push(await s3.download(downloaded));
        rmSync(downloaded, { force: true });
      }
    }
    const after = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, memory(pid)]));

    const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
    const rate = (ms) => `${((mib / ms) * 1000).toFixed(0)} MiB/s`;
    console.log(`packages transfer, ${mib} MiB generic file, median of ${rounds} rounds, ${opts.storage} storage`);
    console.log(`  upload   (curl → gateway → packages-service)  ${fmt(m.upload)}  ${rate(m.upload)}`);
    console.log(`  floor    cp                                  ${fmt(m.cp)}  ${rate(m.cp)}`);
    console.log(`  floor    cp ∥ md5/sha1/sha256/sha512sum     ${fmt(m.cpHashed)}  ${rate(m.cpHashed)}`);
    console.log(`  floor    dd conv=fsync (durable copy)        ${fmt(m.ddSync)}  ${rate(m.ddSync)}`);
    console.log(`  download (packages-service → gateway → curl)  ${fmt(m.download)}  ${rate(m.download)}`);
    console.log(`  floor    cat > file                          ${fmt(m.cat)}  ${rate(m.cat)}`);
    console.log(`  floor    curl file:// -o file                ${fmt(m.curlFile)}  ${rate(m.curlFile)}`);
    console.log(`  ratio upload/cp = ${(m.upload / m.cp).toFixed(2)} (target ≤ 2), upload/dd-fsync = ${(m.upload / m.ddSync).toFixed(2)}, upload/(cp ∥ digests) = ${(m.upload / m.cpHashed).toFixed(2)}`);
    console.log(`  ratio download/cat = ${(m.download / m.cat).toFixed(2)} (target ≤ 1.5), download/curl-file = ${(m.download / m.curlFile).toFixed(2)}`);
    if (s3) {
      console.log(`  floor    lib-storage upload to MinIO         ${fmt(m.s3Upload)}  ${rate(m.s3Upload)}`);
      console.log(`  floor    GetObject from MinIO > file         ${fmt(m.s3Download)}  ${rate(m.s3Download)}`);
      console.log(`  ratio upload/lib-storage = ${(m.upload / m.s3Upload).toFixed(2)} (target ≤ 1.5), download/GetObject = ${(m.download / m.s3Download).toFixed(2)} (target ≤ 1.5)`);
    }
    const spread = (xs) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
    console.log(`  spread: upload ${spread(times.upload)}, download ${spread(times.download)}, cp ${spread(times.cp)}, cat ${spread(times.cat)}`);
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
