--TEST--
__sleep(): the protected and private properties it names (typed or not, a parent's private given mangled) are stored; names serialize() does not find are warned about and left out, as serialize() does
--INI--
resident.enable_cli=1
--FILE--
<?php
require __DIR__ . '/corpus.inc';

class Base
{
    private $secret = 'base default';
    protected $inherited = 'inherited default';
}

class Sleeper extends Base
{
    public $pub = 'pub default';
    protected $prot = 'prot default';
    private $priv = 'priv default';
    protected int $typedProt = 0;
    private ?array $typedPriv = null;
    private ?string $uninit;
    private $notListed = 'not listed default';
    public $names = [];

    public function set(): static
    {
        $this->pub = 'pub set';
        $this->prot = ['prot', 'set'];
        $this->priv = new Plain;
        $this->typedProt = 42;
        $this->typedPriv = ['same object' => $this->priv];
        $this->inherited = 'inherited set';
        $this->notListed = 'not listed set';
        Closure::bind(fn () => $this->secret = 'secret set', $this, Base::class)();
        return $this;
    }

    public function __sleep()
    {
        return $this->names;
    }
}

function sleeper(array $names): Sleeper
{
    $s = (new Sleeper)->set();
    $s->names = $names;
    return $s;
}

/** The object's properties, mangled names shown readably, and whether $uninit is set. */
function props(object $o): string
{
    $out = [];
    foreach ((array)$o as $k => $v) {
        $out[] = str_replace("\0", '\0', $k) . '=' . json_encode($v instanceof Plain ? 'Plain' : (is_array($v) ? array_map(fn ($x) => $x instanceof Plain ? 'Plain' : $x, $v) : $v));
    }
    $out[] = 'uninit ' . ((new ReflectionProperty(Sleeper::class, 'uninit'))->isInitialized($o) ? 'set' : 'uninitialized');
    return implode("\n  ", $out);
}

$diagnostics = [];
set_error_handler(function (int $level, string $message) use (&$diagnostics) {
    $diagnostics[] = [$level, preg_replace('/^[^ ]+\(\): /', '', $message)];
    return true;
});

$c = Resident\Cache::pool('sleep');
$cases = [
    'protected and private, typed and untyped' => ['pub', 'prot', 'priv', 'typedProt', 'typedPriv'],
    'inherited protected, a parent private given mangled' => ['inherited', "\0Base\0secret"],
    'given mangled' => ["\0*\0prot", "\0Sleeper\0priv"],
    'uninitialized typed' => ['uninit', 'pub'],
    'a parent private by its bare name, a missing name' => ['secret', 'missing', 'pub'],
    'named twice' => ['priv', "\0Sleeper\0priv", 'pub', 'pub'],
    'not a string' => ['pub', 42],
];
foreach ($cases as $what => $names) {
    echo "$what:\n";
    $diagnostics = [];
    $expected = unserialize(serialize(sleeper($names)));
    $fromSerialize = $diagnostics;
    $diagnostics = [];
    var_dump($c->store($what, sleeper($names)));
    $fromStore = $diagnostics;
    $fetched = $c->fetch($what);
    echo '  ', props($fetched), "\n";
    echo '  as unserialize(serialize()): ', resident_dump($fetched) === resident_dump($expected) ? 'same' : "DIFFERENT\n" . resident_dump($expected) . resident_dump($fetched), "\n";
    foreach ($fromStore as [$level, $message]) {
        echo "  diagnostic: $message\n";
    }
    echo '  diagnostics as serialize(): ', $fromStore === $fromSerialize ? 'same' : 'DIFFERENT ' . json_encode([$fromSerialize, $fromStore]), "\n";
}

// Inside a graph: the private property's object is the one another property holds.
$s = sleeper(['priv', 'typedPriv']);
$c->store('graph', ['s' => $s, 'again' => $s]);
$g = $c->fetch('graph');
$priv = (fn () => [$this->priv, $this->typedPriv])->call($g['s']);
var_dump($g['s'] === $g['again'], $priv[0] instanceof Plain, $priv[0] === $priv[1]['same object']);
?>
--EXPECT--
protected and private, typed and untyped:
bool(true)
  \0Base\0secret="base default"
  \0*\0inherited="inherited default"
  pub="pub set"
  \0*\0prot=["prot","set"]
  \0Sleeper\0priv="Plain"
  \0*\0typedProt=42
  \0Sleeper\0typedPriv={"same object":"Plain"}
  \0Sleeper\0notListed="not listed default"
  names=[]
  uninit uninitialized
  as unserialize(serialize()): same
  diagnostics as serialize(): same
inherited protected, a parent private given mangled:
bool(true)
  \0Base\0secret="secret set"
  \0*\0inherited="inherited set"
  pub="pub default"
  \0*\0prot="prot default"
  \0Sleeper\0priv="priv default"
  \0*\0typedProt=0
  \0Sleeper\0typedPriv=null
  \0Sleeper\0notListed="not listed default"
  names=[]
  uninit uninitialized
  as unserialize(serialize()): same
  diagnostics as serialize(): same
given mangled:
bool(true)
  \0Base\0secret="base default"
  \0*\0inherited="inherited default"
  pub="pub default"
  \0*\0prot=["prot","set"]
  \0Sleeper\0priv="Plain"
  \0*\0typedProt=0
  \0Sleeper\0typedPriv=null
  \0Sleeper\0notListed="not listed default"
  names=[]
  uninit uninitialized
  as unserialize(serialize()): same
  diagnostics as serialize(): same
uninitialized typed:
bool(true)
  \0Base\0secret="base default"
  \0*\0inherited="inherited default"
  pub="pub set"
  \0*\0prot="prot default"
  \0Sleeper\0priv="priv default"
  \0*\0typedProt=0
  \0Sleeper\0typedPriv=null
  \0Sleeper\0notListed="not listed default"
  names=[]
  uninit uninitialized
  as unserialize(serialize()): same
  diagnostics as serialize(): same
a parent private by its bare name, a missing name:
bool(true)
  \0Base\0secret="base default"
  \0*\0inherited="inherited default"
  pub="pub set"
  \0*\0prot="prot default"
  \0Sleeper\0priv="priv default"
  \0*\0typedProt=0
  \0Sleeper\0typedPriv=null
  \0Sleeper\0notListed="not listed default"
  names=[]
  uninit uninitialized
  as unserialize(serialize()): same
  diagnostic: "secret" returned as member variable from __sleep() but does not exist
  diagnostic: "missing" returned as member variable from __sleep() but does not exist
  diagnostics as serialize(): same
named twice:
bool(true)
  \0Base\0secret="base default"
  \0*\0inherited="inherited default"
  pub="pub set"
  \0*\0prot="prot default"
  \0Sleeper\0priv="Plain"
  \0*\0typedProt=0
  \0Sleeper\0typedPriv=null
  \0Sleeper\0notListed="not listed default"
  names=[]
  uninit uninitialized
  as unserialize(serialize()): same
  diagnostic: "" is returned from __sleep() multiple times
  diagnostic: "pub" is returned from __sleep() multiple times
  diagnostics as serialize(): same
not a string:
bool(true)
  \0Base\0secret="base default"
  \0*\0inherited="inherited default"
  pub="pub set"
  \0*\0prot="prot default"
  \0Sleeper\0priv="priv default"
  \0*\0typedProt=0
  \0Sleeper\0typedPriv=null
  \0Sleeper\0notListed="not listed default"
  names=[]
  uninit uninitialized
  as unserialize(serialize()): same
  diagnostic: Sleeper::__sleep() should return an array only containing the names of instance-variables to serialize
  diagnostic: "42" returned as member variable from __sleep() but does not exist
  diagnostics as serialize(): same
bool(true)
bool(true)
bool(true)
