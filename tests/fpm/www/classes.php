<?php
// The same class names, defined differently per "deploy" (?v=1|2|3), to
// show what a fetch does when the code changed since the value was stored.
$v = (int)($_GET['v'] ?? 1);
if ($v === 1) {
    class Profile { public $name = 'n'; public $age = 1; private $secret = 's'; }
    enum Level { case Low; case High; }
} elseif ($v === 2) {
    #[AllowDynamicProperties]
    class Profile { public int $age = 0; public $email = 'e'; protected $secret = 'p'; }
    enum Level { case Low; }
}
$c = Resident\Cache::pool('deploys');
switch ($_GET['op'] ?? '') {
    case 'store':
        $p = new Profile;
        $p->name = 'Ann';
        $p->age = 42;
        echo json_encode([$c->store('profile', $p), $c->store('level', Level::High), $c->store('low', Level::Low)]);
        break;
    case 'fetch':
        $out = [];
        try {
            $p = $c->fetch('profile');
            $out['class'] = get_class($p);
            $out['props'] = array_map(fn($v) => is_scalar($v) ? $v : gettype($v), (array)$p);
        } catch (Throwable $e) {
            $out['profile'] = get_class($e) . ': ' . $e->getMessage();
        }
        try {
            $out['level'] = $c->fetch('level')->name;
        } catch (Throwable $e) {
            $out['level'] = get_class($e) . ': ' . $e->getMessage();
        }
        try {
            $out['low'] = $c->fetch('low')->name;
        } catch (Throwable $e) {
            $out['low'] = get_class($e) . ': ' . $e->getMessage();
        }
        echo json_encode($out);
        break;
}
