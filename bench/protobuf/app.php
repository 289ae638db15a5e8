<?php
/*
 * The protobuf benchmark's request: the first message of the addressbook
 * schema (autoloading its classes and, unless its statics were kept,
 * building the runtime's descriptor pool), then an address book of three
 * people, serialized. Headers: X-First-Message-Us (script start to the
 * first message, plus the statics restored before the script started: those
 * of preloaded classes are restored when the request starts), X-Worker-Us
 * (the whole request, plus the same). With ?autoloaded=1, answers the classes
 * autoloaded before the first message instead.
 */
$restoredBefore = extension_loaded('resident') ? Resident\Cache::status()['request_over_static']['restore_us_this_request'] : 0;
$start = hrtime(true);
$generated = getenv('PROTOBUF_GENERATED') ?: ($_SERVER['PROTOBUF_GENERATED'] ?? __DIR__ . '/generated');
$autoloaded = [];
spl_autoload_register(function (string $class) use ($generated, &$autoloaded) {
    $autoloaded[] = $class;
    $path = str_replace('\\', '/', $class) . '.php';
    foreach ([$generated, '/usr/share/php'] as $root) {
        if (is_file("$root/$path")) {
            require "$root/$path";
            return;
        }
    }
});

if (isset($_GET['status'])) {
    echo json_encode(Resident\Cache::status()['request_over_static']);
    return;
}

$person = new Tutorial\Person();
$firstMessage = hrtime(true);
if (isset($_GET['autoloaded'])) {
    echo json_encode($autoloaded);
    return;
}

$book = new Tutorial\AddressBook();
$people = [];
for ($i = 1; $i <= 3; $i++) {
    $p = $i === 1 ? $person : new Tutorial\Person();
    $p->setId($i);
    $p->setName("Person $i");
    $p->setEmail("person$i@example.com");
    $phones = [];
    foreach ([Tutorial\Person\PhoneType::MOBILE, Tutorial\Person\PhoneType::WORK] as $k => $type) {
        $phone = new Tutorial\Person\PhoneNumber();
        $phone->setNumber("555-0$i$k");
        $phone->setType($type);
        $phones[] = $phone;
    }
    $p->setPhones($phones);
    $people[] = $p;
}
$book->setPeople($people);
$bytes = $book->serializeToString();

$end = hrtime(true);
header('X-First-Message-Us: ' . ($restoredBefore + intdiv($firstMessage - $start, 1000)));
header('X-Worker-Us: ' . ($restoredBefore + intdiv($end - $start, 1000)));
echo 'ok ', strlen($bytes), ' ', md5($bytes), "\n";
