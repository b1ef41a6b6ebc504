#!/usr/bin/env python3
"""What a running local stack spends while nothing happens, and how long an event takes at low traffic.

  drills/idle.py --data-dir .local-stack [--seconds 60] [--approvals 20] [--threads 25]

1. CPU of every process of the stack (the launcher with its Kafka broker, each service JVM, PostgreSQL's postmaster
   and backends), from /proc over --seconds, with the whole machine's beside it: the stack's own share is what it
   costs, whatever else the machine runs.
2. --approvals N: N approvals one a second (at most five per member, under the 10/min limit), each timed from the
   confirm's answer to the order reading PAID on order-service (polled every 10 ms): the relay, Kafka and the
   consumer between them; then the relay's own commit -> Kafka percentiles from payment-service's Prometheus.
Ports are the local stack's defaults unless given. Every loop is bounded.
"""
import argparse, glob, json, os, re, subprocess, sys, time, urllib.error, urllib.request

HZ = os.sysconf('SC_CLK_TCK')


def stat(pid):
    raw = open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()
    return raw[1], int(raw[11]) + int(raw[12])          # ppid, utime + stime


def label(pid):
    cmd = open(f'/proc/{pid}/cmdline', 'rb').read().replace(b'\0', b' ').decode(errors='replace')
    m = re.search(r'-Dlocal-stack\.component=(\S+)', cmd)
    if m:
        return m.group(1)
    if 'walsender' in cmd:
        return 'postgres walsenders'
    if cmd.startswith('postgres:'):
        return 'postgres backends' if '(' in cmd else 'postgres background'
    if '/postgres' in cmd.split(' ')[0]:
        return 'postgres background'
    return 'launcher (Kafka broker)'


def stack_processes(roots):
    found = {}
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            p, seen = pid, 0
            while p not in ('0', '1') and seen < 50:
                if p in roots:
                    found[pid] = label(pid)
                    break
                p, seen = stat(p)[0], seen + 1
        except (FileNotFoundError, ProcessLookupError, IndexError):
            pass
    return found


def cpu(processes):
    out = {}
    for pid in processes:
        try:
            out[pid] = stat(pid)[1]
        except (FileNotFoundError, IndexError):
            pass
    return out


def thread_cpu(pids):
    out = {}
    for pid in pids:
        for task in glob.glob(f'/proc/{pid}/task/*'):
            try:
                name = open(f'{task}/comm').read().strip()
                raw = open(f'{task}/stat').read().rsplit(')', 1)[1].split()
                out[(pid, task.rsplit('/', 1)[1])] = (name, int(raw[11]) + int(raw[12]))
            except (FileNotFoundError, ProcessLookupError, IndexError):
                pass
    return out


def machine_busy():
    v = list(map(int, open('/proc/stat').readline().split()[1:]))
    return sum(v) - v[3] - v[4]


def measure_idle(data_dir, seconds, threads=0):
    children = [open(f).read().strip() for f in glob.glob(os.path.join(data_dir, 'run', '*.pid'))]
    launcher = {stat(c)[0] for c in children if os.path.exists(f'/proc/{c}')}
    postmaster = open(os.path.join(data_dir, 'postgres', 'postmaster.pid')).readline().strip()
    processes = stack_processes(launcher | {postmaster})
    a, ma, ta, t0 = cpu(processes), machine_busy(), thread_cpu(processes if threads else ()), time.time()
    time.sleep(seconds)
    b, mb, tb, dt = cpu(processes), machine_busy(), thread_cpu(processes if threads else ()), time.time() - t0
    by = {}
    for pid, ticks in b.items():
        by[processes[pid]] = by.get(processes[pid], 0) + (ticks - a.get(pid, ticks)) / HZ / dt
    for name, cores in sorted(by.items(), key=lambda x: -x[1]):
        print(f'  {name:28s} {cores:.3f} cores')
    print(f'  {"the stack":28s} {sum(by.values()):.3f} cores (whole machine {(mb - ma) / HZ / dt:.2f} cores, {dt:.0f} s)')
    if threads:
        # Thread names as the JVM set them, with a pool's numbers folded ("kafka-request-handler-3" -> "-N").
        per = {}
        for key, (name, ticks) in tb.items():
            folded = (processes[key[0]], re.sub(r'\d+', 'N', name))
            per[folded] = per.get(folded, 0) + (ticks - ta.get(key, (name, ticks))[1]) / HZ / dt
        print(f'  busiest threads (millicores):')
        for (process, name), cores in sorted(per.items(), key=lambda x: -x[1])[:threads]:
            print(f'    {process:28s} {name:20s} {cores * 1000:5.1f}')


def measure_latency(args, n):
    def token(i):
        run = subprocess.run(['local-stack/token.sh', '--issuer', args.issuer, 'member', f'member-idle-{int(time.time())}-{i}'],
                             capture_output=True, text=True, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        return run.stdout.strip().splitlines()[-1]

    tokens = [token(i) for i in range(n // 5 + 1)]

    def call(method, url, bearer, body=None, headers=None):
        request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                         headers={'Content-Type': 'application/json', 'Authorization': 'Bearer ' + bearer,
                                                  **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                return r.status, json.loads(r.read() or b'null')
        except urllib.error.HTTPError as e:
            return e.code, None

    took = []
    for i in range(n):
        bearer = tokens[i // 5]
        _, order = call('POST', args.order_url + '/api/orders', bearer, {'amount': 1000, 'currency': 'KRW', 'orderName': 'idle'})
        order_id = order['orderId']
        time.sleep(1)
        for _ in range(200):                                  # 404 until payment-service has learnt the order
            status, _ = call('POST', args.payment_url + '/api/payments/confirm', bearer,
                             {'orderId': order_id, 'paymentKey': 'pk-' + order_id, 'amount': 1000},
                             {'Idempotency-Key': 'idle-' + order_id})
            if status == 200:
                break
            time.sleep(0.05)
        started, seen = time.time(), None
        while seen is None and time.time() - started < 10:
            _, body = call('GET', f'{args.order_url}/api/orders/{order_id}', bearer)
            if body and body.get('status') == 'PAID':
                seen = (time.time() - started) * 1000
            else:
                time.sleep(0.01)
        took.append(seen if seen is not None else float('inf'))
        time.sleep(1)
    took.sort()
    print(f'  confirm answered -> order PAID: p50 {took[len(took) // 2]:.0f} ms, p90 {took[int(len(took) * 0.9)]:.0f} ms, '
          f'max {took[-1]:.0f} ms ({n} approvals, one a second)')
    for line in urllib.request.urlopen(args.payment_management_url + '/actuator/prometheus').read().decode().splitlines():
        if line.startswith('outbox_relay_lag_seconds{'):
            q = re.search(r'quantile="([^"]+)"', line).group(1)
            print(f'  relay commit -> Kafka q{q}: {float(line.split()[-1]) * 1000:.0f} ms')


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--data-dir', default='.local-stack')
    parser.add_argument('--seconds', type=float, default=60)
    parser.add_argument('--approvals', type=int, default=0)
    parser.add_argument('--threads', type=int, default=0, help='also print the N busiest threads')
    parser.add_argument('--order-url', default='http://127.0.0.1:8081')
    parser.add_argument('--payment-url', default='http://127.0.0.1:8082')
    parser.add_argument('--payment-management-url', default='http://127.0.0.1:9082')
    parser.add_argument('--issuer', default='http://127.0.0.1:9000')
    args = parser.parse_args()
    print(f'idle, {args.seconds:.0f} s:')
    measure_idle(args.data_dir, args.seconds, args.threads)
    if args.approvals:
        print('low traffic:')
        measure_latency(args, args.approvals)


if __name__ == '__main__':
    sys.exit(main())
