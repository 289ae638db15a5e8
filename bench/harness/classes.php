<?php
/*
 * The classes the workloads of bench/harness/workloads.php cache. Their
 * shapes (properties, hooks, what the hooks do) follow the classes of the
 * ext-user_cache proposal's benchmark harness
 * (github.com/colopl/php-user_cache_benchmark_harness,
 * scripts/UserCacheBenchmark.php), so that each workload costs what the
 * harness's does; the code is ours.
 */

declare(strict_types=1);

/** A leaf object with a child: the smallest graph. */
final class HxChild
{
    public function __construct(public string $label, public int $revision) {}
}

final class HxParent
{
    public function __construct(public string $name, public HxChild $child) {}
}

/** An entity with __serialize()/__unserialize() and an optional related one. */
final class HxHookedEntity
{
    public function __construct(
        private int $id,
        private string $name,
        private array $attributes,
        private ?HxHookedEntity $related = null,
    ) {}

    public function __serialize(): array
    {
        return ['id' => $this->id, 'name' => $this->name, 'attributes' => $this->attributes, 'related' => $this->related];
    }

    public function __unserialize(array $data): void
    {
        [$this->id, $this->name, $this->attributes, $this->related] =
            [$data['id'], $data['name'], $data['attributes'], $data['related']];
    }

    public function weight(): int
    {
        return $this->id + count($this->attributes) + ($this->related === null ? 0 : $this->related->id);
    }

    public function related(): ?HxHookedEntity
    {
        return $this->related;
    }
}

/*
 * __unserialize() without __serialize(): serialize() writes the properties
 * under their mangled names, and the hook reads them back and recomputes a
 * derived field.
 */
final class HxRestoreOnlyEntity
{
    private int $derived;

    public function __construct(
        private int $id,
        private string $name,
        private array $attributes,
        private ?HxRestoreOnlyEntity $related = null,
    ) {
        $this->derived = self::derive($id, $name, $attributes, $related);
    }

    public function __unserialize(array $data): void
    {
        $p = "\0" . self::class . "\0";
        $this->id = $data[$p . 'id'];
        $this->name = $data[$p . 'name'];
        $this->attributes = $data[$p . 'attributes'];
        $this->related = $data[$p . 'related'];
        $this->derived = self::derive($this->id, $this->name, $this->attributes, $this->related);
    }

    public function weight(): int
    {
        return $this->derived + ($this->related === null ? 0 : $this->related->derived);
    }

    public function related(): ?HxRestoreOnlyEntity
    {
        return $this->related;
    }

    private static function derive(int $id, string $name, array $attributes, ?HxRestoreOnlyEntity $related): int
    {
        return $id + strlen($name) + count($attributes) + ($related === null ? 0 : $related->id);
    }
}

/** An ORM-like row: __sleep() lists four properties, __wakeup() marks it. */
final class HxSleepingUser
{
    public string $origin = 'constructor';

    public function __construct(
        public int $id,
        public string $email,
        public array $roles,
        public array $profile,
    ) {}

    public function __sleep(): array
    {
        return ['id', 'email', 'roles', 'profile'];
    }

    public function __wakeup(): void
    {
        $this->origin = 'cache';
    }
}

/** A tree node pointing at its parent, with an empty __wakeup(). */
final class HxTreeNode
{
    public ?HxTreeNode $parent = null;
    public array $children = [];

    public function __construct(public string $name, public array $attributes) {}

    public function __sleep(): array
    {
        return ['parent', 'children', 'name', 'attributes'];
    }

    public function __wakeup(): void {}
}

/** A report whose __sleep() leaves out a transient field __wakeup() sets. */
final class HxSleepingReport
{
    public string $transient = 'not-cached';

    public function __construct(public string $name, public array $routes, public array $settings) {}

    public function __sleep(): array
    {
        return ['name', 'routes', 'settings'];
    }

    public function __wakeup(): void
    {
        $this->transient = 'rehydrated';
    }
}

final class HxModelWithCarbon
{
    public function __construct(
        public int $id,
        public string $name,
        public Carbon\CarbonInterface $createdAt,
        public Carbon\CarbonInterface $updatedAt,
        public Carbon\CarbonInterface $publishedAt,
        public array $attributes,
    ) {}
}

final class HxModelWithDateTime
{
    public function __construct(
        public int $id,
        public string $name,
        public DateTimeInterface $createdAt,
        public DateTimeInterface $updatedAt,
        public DateTimeInterface $publishedAt,
        public array $attributes,
    ) {}
}

/** Two of these point at each other. */
final class HxPeer
{
    public ?HxPeer $peer = null;

    public function __construct(public string $name, public int $revision) {}
}

final class HxDates
{
    public function __construct(
        public DateTimeImmutable $createdAt,
        public DateTimeZone $zone,
        public DateTimeImmutable $expiresAt,
        public DateInterval $grace,
    ) {}
}

final class HxCarbonDates
{
    public function __construct(
        public Carbon\CarbonImmutable $createdAt,
        public Carbon\Carbon $updatedAt,
        public Carbon\CarbonTimeZone $zone,
        public array $timeline,
    ) {}
}

final class HxNativeDates
{
    public function __construct(
        public DateTimeImmutable $createdAt,
        public DateTime $updatedAt,
        public DateTimeZone $zone,
        public array $timeline,
    ) {}
}

/** An ArrayObject subclass with two declared properties of its own. */
final class HxCollection extends ArrayObject
{
    public function __construct(array $items, public string $name, public int $revision)
    {
        parent::__construct($items, ArrayObject::ARRAY_AS_PROPS);
    }
}

final class HxRowsHolder
{
    public function __construct(public string $name, public array $rows, public HxChild $child) {}
}

final class HxAppMetadata
{
    public function __construct(public string $name, public array $routes, public array $services, public HxChild $owner) {}
}

final class HxProduct
{
    public function __construct(
        public int $id,
        public string $sku,
        public string $title,
        public int $priceCents,
        public array $badges,
        public HxChild $seller,
    ) {}
}

final class HxListingPage
{
    public function __construct(
        public string $cacheKey,
        public DateTimeImmutable $generatedAt,
        public array $products,
        public array $facets,
        public array $context,
    ) {}
}
