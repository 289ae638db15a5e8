<?php
// Endpoint for the php-fpm test of one-pass stores across requests:
// ?n=N stores a Box whose label has N bytes, then reads it back.
final class Box
{
    public string $label = '';
    public array $items = [];
    public ?Box $next = null;
}

$c = Resident\Cache::pool('sizes');
header('X-Pid: ' . getmypid());
$n = (int)$_GET['n'];
$box = new Box();
$box->label = str_repeat('b', $n);
$box->items = [new Box(), 'k' => $n];
$box->next = $box->items[0];
$stored = $c->store('box', $box);
$got = $c->fetch('box');
echo json_encode([
    'stored' => $stored,
    'same' => serialize($got) === serialize($box),
    'memory' => $c->info()['memory'],
]);
