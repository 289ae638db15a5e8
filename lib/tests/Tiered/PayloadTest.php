<?php

declare(strict_types=1);

namespace Resident\Tests\Tiered;

use PHPUnit\Framework\TestCase;
use Resident\Tiered\Payload;
use Resident\Tiered\PayloadRefused;

/**
 * Bytes read from the shared tier are checked before anything is made of
 * them: a version, a checksum or a signature over all of them, and the
 * classes unserialize() may instantiate.
 */
final class PayloadTest extends TestCase
{
    private const SECRET = 'a secret of the fleet, 32 bytes or more';

    protected function setUp(): void
    {
        Planted::$madeAlive = 0;
    }

    /** A payload of this format, as someone who can write to Redis can make it without a secret. */
    private static function forged(string $serialized, int $expiresAt = 0): string
    {
        $header = "RT\x01\x01";
        $body = pack('J', $expiresAt) . $serialized;

        return $header . hash('xxh128', $header . $body, true) . $body;
    }

    public function testValuesRoundTripWithTheirExpiry(): void
    {
        $payload = new Payload();
        foreach ([null, false, 0, 'text', [1, 'a' => ['b' => 2.5]]] as $value) {
            self::assertSame([$value, 1234], $payload->decode($payload->encode($value, 1234)));
        }
        $signed = new Payload(secret: self::SECRET);
        self::assertSame([['x'], 0], $signed->decode($signed->encode(['x'], 0)));
    }

    public function testAPayloadNamingAClassNotAllowedIsRefusedNotInstantiated(): void
    {
        $planted = self::forged(serialize([new Planted(), 'payload']));
        self::assertSame(1, Planted::$madeAlive, 'the attacker\'s own object, destroyed');
        Planted::$madeAlive = 0;
        foreach ([new Payload(), new Payload([\DateTimeImmutable::class])] as $payload) {
            try {
                $payload->decode($planted);
                self::fail('decoded a payload naming ' . Planted::class);
            } catch (PayloadRefused $e) {
                self::assertStringContainsString('an object of class ' . Planted::class . ', which is not among the allowed classes', $e->getMessage());
            }
        }
        gc_collect_cycles();
        self::assertSame(0, Planted::$madeAlive);
    }

    public function testAllowedClassesComeBack(): void
    {
        $payload = new Payload([\DateTimeImmutable::class, \stdClass::class]);
        $date = new \DateTimeImmutable('2020-01-01 00:00:00 UTC');
        self::assertEquals([['at' => $date, 'o' => new \stdClass()], 0], $payload->decode($payload->encode(['at' => $date, 'o' => new \stdClass()], 0)));
        self::assertEquals([$date, 0], (new Payload(true))->decode((new Payload(true))->encode($date, 0)));
    }

    public function testAValueHoldingAClassNotAllowedIsRefusedWhenStored(): void
    {
        $this->expectException(PayloadRefused::class);
        $this->expectExceptionMessage('an object of class stdClass, which is not among the allowed classes (none)');
        (new Payload())->encode(['deep' => [new \stdClass()]], 0);
    }

    public function testBytesOfAnotherFormatAreNoPayload(): void
    {
        $payload = new Payload();
        // What this library wrote before the format had a version: never unserialized now.
        self::assertNull($payload->decode(serialize([new Planted(), 0])));
        Planted::$madeAlive = 0;
        self::assertNull($payload->decode(''));
        self::assertNull($payload->decode('plain text someone SET'));
        self::assertNull($payload->decode("RT\x02\x01" . str_repeat("\0", 30)), 'a later version');
        self::assertSame(0, Planted::$madeAlive);
    }

    public function testADamagedPayloadIsRefused(): void
    {
        $payload = new Payload();
        $good = $payload->encode('value', 0);
        foreach ([\strlen($good) - 1, 20, 4] as $offset) {
            $bad = $good;
            $bad[$offset] = \chr(\ord($bad[$offset]) ^ 1);
            try {
                $payload->decode($bad);
                self::fail("a payload damaged at byte $offset was taken");
            } catch (PayloadRefused $e) {
                self::assertStringContainsString('checksum does not match', $e->getMessage());
            }
        }
        $this->expectException(PayloadRefused::class);
        $payload->decode(substr($good, 0, 10));
    }

    public function testMalformedBytesWithAGoodChecksumAreRefusedWithoutAWarning(): void
    {
        $this->expectException(PayloadRefused::class);
        $this->expectExceptionMessage('a value unserialize() cannot read');
        (new Payload())->decode(self::forged('a:2:{i:0;s:99:"short";}'));
    }

    public function testWithASecretOnlySignedPayloadsAreTaken(): void
    {
        $signed = new Payload(true, self::SECRET);
        // An attacker without the secret: any class allowed does not help them.
        foreach ([self::forged(serialize(new Planted())), (new Payload(true, str_repeat('x', 32)))->encode(new Planted(), 0)] as $i => $planted) {
            Planted::$madeAlive = 0;
            try {
                $signed->decode($planted);
                self::fail("payload $i was taken");
            } catch (PayloadRefused $e) {
                self::assertMatchesRegularExpression('/an unsigned payload|signature does not match/', $e->getMessage());
            }
            self::assertSame(0, Planted::$madeAlive);
        }
        $this->expectException(PayloadRefused::class);
        $this->expectExceptionMessage('a signed payload, and this host has no secret');
        (new Payload())->decode($signed->encode('v', 0));
    }

    public function testASecretTooShortIsRefused(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage('The payload secret must have at least 32 bytes, 5 given');
        new Payload(secret: 'short');
    }
}
