--TEST--
Userland serialization hooks (Carbon's kind) run as unserialize(serialize()) runs them: count, order, side effects, exceptions, subclass state, references (copy mode)
--INI--
resident.enable_cli=1
resident.zero_copy=0
--FILE--
<?php
require __DIR__ . '/hooks.inc';
hooks_run(Resident\Cache::pool('hooks'));
?>
--EXPECT--
graph store: resident ok, serialize ok, hooks same: ser root, ser leaf, sleep s1, sleep s2
graph fetch: resident ok, unserialize ok, hooks same: wakeup s2, wakeup s1, unser leaf, unser root
graph result: same
plain subclass store: resident ok, serialize ok, hooks same: ser root, ser leaf, sleep s1, sleep s2
plain subclass fetch: resident ok, unserialize ok, hooks same: wakeup s2, wakeup s1, unser leaf, unser root
plain subclass result: same
graph store: resident RuntimeException: thrown in ser root, serialize RuntimeException: thrown in ser root, hooks same: ser root
string(6) "before"
graph store: resident RuntimeException: thrown in ser leaf, serialize RuntimeException: thrown in ser leaf, hooks same: ser root, ser leaf
string(6) "before"
graph store: resident RuntimeException: thrown in sleep s2, serialize RuntimeException: thrown in sleep s2, hooks same: ser root, ser leaf, sleep s1, sleep s2
string(6) "before"
graph store: resident ok, serialize ok, hooks same: ser root, ser leaf, sleep s1, sleep s2
graph fetch: resident RuntimeException: thrown in unser root, unserialize RuntimeException: thrown in unser root, hooks same: wakeup s2, wakeup s1, unser leaf, unser root
graph store: resident ok, serialize ok, hooks same: ser root, ser leaf, sleep s1, sleep s2
graph fetch: resident RuntimeException: thrown in unser leaf, unserialize RuntimeException: thrown in unser leaf, hooks same: wakeup s2, wakeup s1, unser leaf
graph store: resident ok, serialize ok, hooks same: ser root, ser leaf, sleep s1, sleep s2
graph fetch: resident RuntimeException: thrown in wakeup s1, unserialize RuntimeException: thrown in wakeup s1, hooks same: wakeup s2, wakeup s1
references store: resident ok, serialize ok, hooks same: ser holder, sleep in holder
references fetch: resident ok, unserialize ok, hooks same: wakeup in holder, unser holder
references result: same
bool(true)
bool(true)
bool(true)
string(7) "changed"
refused store: resident TypeError: Resident\Cache::store(): Argument #2 ($value) cannot be cached: $value->__serialize()['child'] is a Closure declared in eval()'d code, serialize Exception: Serialization of 'Closure' is not allowed, hooks same: ser refusing
