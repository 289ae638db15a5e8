<?php
/*
 * The Resident dashboard: one file to drop into a protected location (it
 * shows key names). No CDN and no library: the page is rendered here with
 * inline SVG, and a few lines of JavaScript poll ?json=1 every 2 seconds to
 * extend the charts and refresh the numbers.
 */
declare(strict_types=1);

if (!class_exists(Resident\Cache::class)) {
    http_response_code(503);
    exit("Resident is not loaded in this PHP.\n");
}

function resident_dashboard_data(): array
{
    $status = Resident\Cache::status();
    return [
        'time' => microtime(true),
        'status' => $status,
        'inspect' => $status['available'] ? Resident\Cache::inspect(15, 160) : ['memory_map' => [], 'largest' => [], 'hottest' => [], 'pools' => [], 'snapshots' => []],
    ];
}

if (isset($_GET['json'])) {
    header('Content-Type: application/json');
    header('Cache-Control: no-store');
    echo json_encode(resident_dashboard_data(), JSON_INVALID_UTF8_SUBSTITUTE | JSON_PARTIAL_OUTPUT_ON_ERROR);
    return;
}

$d = resident_dashboard_data();
$s = $d['status'];
$i = $d['inspect'];
$e = fn ($v): string => htmlspecialchars((string)$v, ENT_QUOTES | ENT_SUBSTITUTE);
$bytes = function (int|float $n): string {
    foreach (['B', 'KB', 'MB', 'GB'] as $unit) {
        if ($n < 1024 || $unit === 'GB') {
            return $unit === 'B' ? number_format($n) . ' B' : number_format($n, 1) . " $unit";
        }
        $n /= 1024;
    }
    return '';
};
$available = $s['available'];
$hitRate = $available && ($s['hits'] + $s['misses']) > 0 ? 100 * $s['hits'] / ($s['hits'] + $s['misses']) : null;
header('Cache-Control: no-store');
?><!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Resident dashboard</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; background: #fafafa; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 15px; margin: 24px 0 8px; }
.meta { color: #666; margin-bottom: 16px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; }
.card { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 10px 14px; min-width: 140px; }
.card .label { color: #666; font-size: 12px; } .card .value { font-size: 20px; font-weight: 600; }
table { border-collapse: collapse; background: #fff; } td, th { border: 1px solid #ddd; padding: 4px 8px; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.row { display: flex; flex-wrap: wrap; gap: 24px; } .legend span { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 12px; }
svg { background: #fff; border: 1px solid #ddd; }
.down { color: #b00020; font-weight: 600; }
</style>
</head>
<body>
<h1>Resident</h1>
<div class="meta">version <?= $e($s['version']) ?>,
  segment <span data-metric="segment"><?= $e($s['segment'] ?? 'anonymous') ?></span>,
  <?= $available ? 'zero-copy: ' . $e($s['zero_copy']) : '<span class="down">unavailable: ' . $e($s['reason'] ?? '') . '</span>' ?>,
  page of <?= $e(date('Y-m-d H:i:s')) ?></div>
<?php if ($available): ?>
<div class="cards">
  <div class="card"><div class="label">memory used</div><div class="value" data-metric="memory_used"><?= $bytes($s['memory_used']) ?></div><div class="label">of <?= $bytes($s['memory_size']) ?></div></div>
  <div class="card"><div class="label">entries</div><div class="value" data-metric="entries"><?= number_format($s['entries']) ?></div></div>
  <div class="card"><div class="label">hit rate</div><div class="value" data-metric="hit_rate"><?= $hitRate === null ? '–' : number_format($hitRate, 1) . ' %' ?></div><div class="label"><?= number_format($s['hits']) ?> hits, <?= number_format($s['misses']) ?> misses</div></div>
  <div class="card"><div class="label">evictions</div><div class="value" data-metric="evictions"><?= number_format($s['evictions']) ?></div></div>
  <div class="card"><div class="label">limbo</div><div class="value" data-metric="limbo"><?= $bytes($s['limbo_bytes']) ?></div><div class="label"><?= number_format($s['limbo_entries']) ?> entries</div></div>
  <div class="card"><div class="label">lock waits</div><div class="value" data-metric="lock_waits"><?= number_format($s['lock_waits']) ?></div></div>
  <div class="card"><div class="label">static snapshots</div><div class="value" data-metric="snapshots"><?= number_format(count($i['snapshots'])) ?></div></div>
</div>

<h2>Memory map</h2>
<div class="legend">by address, <?= count($i['memory_map']) ?> slices of <?= $bytes($s['memory_heap'] / max(1, count($i['memory_map']))) ?>:
  <span style="background:#1e88e5"></span>live <span style="background:#ef6c00"></span>limbo <span style="background:#8e24aa"></span>being written <span style="background:#e0e0e0"></span>free</div>
<svg id="memory-map" width="960" height="64" role="img" aria-label="memory map">
<?php
$w = 960 / max(1, count($i['memory_map']));
foreach ($i['memory_map'] as $k => $cell) {
    $total = max(1, $cell['live'] + $cell['free'] + $cell['limbo'] + $cell['reserved']);
    $y = 64;
    foreach (['live' => '#1e88e5', 'limbo' => '#ef6c00', 'reserved' => '#8e24aa', 'free' => '#e0e0e0'] as $state => $color) {
        $h = 64 * $cell[$state] / $total;
        if ($h > 0) {
            $y -= $h;
            printf('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"/>', $k * $w, $y, $w, $h, $color);
        }
    }
}
?>
</svg>

<div class="row">
  <div><h2>Hit rate (%), live</h2><svg id="chart-hit-rate" width="460" height="140"><polyline fill="none" stroke="#1e88e5" stroke-width="2" points=""/></svg></div>
  <div><h2>Evictions per second, live</h2><svg id="chart-evictions" width="460" height="140"><polyline fill="none" stroke="#ef6c00" stroke-width="2" points=""/></svg></div>
</div>

<div class="row">
<div><h2>Largest entries</h2>
<table id="largest"><tr><th>pool</th><th>key</th><th class="num">bytes</th><th class="num">ttl</th></tr>
<?php foreach ($i['largest'] as $r): ?>
<tr><td><?= $e($r['pool']) ?></td><td><?= $e($r['key']) ?></td><td class="num"><?= number_format($r['bytes']) ?></td><td class="num"><?= $r['ttl'] === null ? '–' : $e($r['ttl']) . ' s' ?></td></tr>
<?php endforeach ?>
</table></div>
<div><h2>Most read entries (estimated)</h2>
<table id="hottest"><tr><th>pool</th><th>key</th><th class="num">hits</th><th class="num">bytes</th></tr>
<?php foreach ($i['hottest'] as $r): ?>
<tr><td><?= $e($r['pool']) ?></td><td><?= $e($r['key']) ?></td><td class="num"><?= number_format($r['hits']) ?></td><td class="num"><?= number_format($r['bytes']) ?></td></tr>
<?php endforeach ?>
</table></div>
</div>

<h2>Pools</h2>
<table id="pools"><tr><th>pool</th><th class="num">entries</th><th class="num">memory</th><th class="num">hits</th><th class="num">misses</th><th class="num">stores</th><th class="num">evictions</th><th>pinned</th></tr>
<?php foreach ($i['pools'] as $p): ?>
<tr><td><?= $e($p['name']) ?></td><td class="num"><?= number_format($p['entries']) ?></td><td class="num"><?= $bytes($p['memory']) ?></td><td class="num"><?= number_format($p['hits']) ?></td><td class="num"><?= number_format($p['misses']) ?></td><td class="num"><?= number_format($p['stores']) ?></td><td class="num"><?= number_format($p['evictions']) ?></td><td><?= $p['pinned'] ? 'yes' : '' ?></td></tr>
<?php endforeach ?>
</table>

<h2>RequestOverStatic snapshots</h2>
<table id="snapshots"><tr><th>unit</th><th class="num">bytes</th></tr>
<?php foreach ($i['snapshots'] as $r): ?>
<tr><td><?= $e($r['unit']) ?></td><td class="num"><?= number_format($r['bytes']) ?></td></tr>
<?php endforeach ?>
</table>

<script>
// Live charts: poll ?json=1, keep the last 90 samples, redraw the polylines.
(function () {
  var history = [], last = null;
  function draw(id, values, max) {
    var svg = document.getElementById(id), pts = [];
    var w = svg.getAttribute('width'), h = svg.getAttribute('height');
    values.forEach(function (v, k) {
      pts.push((k * (w - 10) / 89 + 5).toFixed(1) + ',' + (h - 5 - (h - 10) * Math.min(v, max) / (max || 1)).toFixed(1));
    });
    svg.querySelector('polyline').setAttribute('points', pts.join(' '));
  }
  function poll() {
    fetch('?json=1', {cache: 'no-store'}).then(function (r) { return r.json(); }).then(function (d) {
      var s = d.status;
      if (!s.available) { return; }
      var sample = {rate: (s.hits + s.misses) ? 100 * s.hits / (s.hits + s.misses) : 0, ev: 0};
      if (last) { sample.ev = Math.max(0, (s.evictions - last.status.evictions) / Math.max(0.001, d.time - last.time)); }
      last = d;
      history.push(sample);
      if (history.length > 90) { history.shift(); }
      draw('chart-hit-rate', history.map(function (x) { return x.rate; }), 100);
      draw('chart-evictions', history.map(function (x) { return x.ev; }), Math.max(1, Math.max.apply(null, history.map(function (x) { return x.ev; }))));
      document.querySelector('[data-metric=entries]').textContent = s.entries.toLocaleString('en');
      document.querySelector('[data-metric=evictions]').textContent = s.evictions.toLocaleString('en');
    }).catch(function () {});
  }
  poll();
  setInterval(poll, 2000);
})();
</script>
<?php endif ?>
</body>
</html>
