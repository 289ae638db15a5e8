<?php
// Endpoint for the per-pool settings test: which of resident.direct_classes
// and resident.request_over_static_classes the serving pool applies.
final class Hooked
{
    public static int $calls = 0;
    public int $v = 1;

    public function __serialize(): array
    {
        self::$calls++;
        return ['v' => $this->v];
    }

    public function __unserialize(array $data): void
    {
        $this->v = $data['v'];
    }
}

final class Visits
{
    public static int $n = 0;
}

Resident\Cache::pool('settings')->store('hooked', new Hooked());
Visits::$n++;
echo json_encode(['hook_calls' => Hooked::$calls, 'visits' => Visits::$n]);
