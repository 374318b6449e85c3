import pino from 'pino';
const [minLength, maxWrite] = process.argv.slice(2).map(Number);
const d = pino.destination({ dest: '/tmp/prof/sb.log', sync: false, minLength, maxWrite, periodicFlush: 100 });
const line = JSON.stringify({ level: 30, time: Date.now(), pid: 1, hostname: 'vm', reqId: '518ef412-bb6e-4b01-be48-864176da225c', method: 'GET', url: '/health', remoteAddress: '127.0.0.1', statusCode: 200, responseTime: 0.0201, msg: 'request' }) + '\n';
for (let r = 0; r < 2; r++) {
const t0 = process.cpuUsage();
let i = 0;
await new Promise((resolve) => { const tick = () => { for (let k = 0; k < 100; k++) d.write(line); if (++i < 2000) setImmediate(tick); else resolve(); }; tick(); });
const c = process.cpuUsage(t0);
console.log(minLength, maxWrite, ((c.user + c.system) / 200000).toFixed(2), 'µs cpu/line');
}
d.flushSync();
