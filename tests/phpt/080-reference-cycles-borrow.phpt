--TEST--
Arrays that contain themselves through references, at depths 1 to 5, in objects, shared, with references inside references: stored and fetched as unserialize(serialize()) gives them, planned and in one pass (borrow mode)
--INI--
resident.enable_cli=1
resident.zero_copy=1
--FILE--
<?php
require __DIR__ . '/cycles.inc';
cycle_run(Resident\Cache::pool('cycles'));
echo Resident\Cache::status()['zero_copy'], "\n";
?>
--EXPECT--
issue                                    stored same
  ... in an object                       stored same
depth 1                                  stored same
  ... in an object                       stored same
depth 2                                  stored same
  ... in an object                       stored same
depth 3                                  stored same
  ... in an object                       stored same
depth 4                                  stored same
  ... in an object                       stored same
depth 5                                  stored same
  ... in an object                       stored same
back to the middle                       stored same
  ... in an object                       stored same
two ways back                            stored same
  ... in an object                       stored same
met three times                          stored same
  ... in an object                       stored same
in an object                             stored same
  ... in an object                       stored same
in an object, and back to it             stored same
  ... in an object                       stored same
object in the cycle                      stored same
  ... in an object                       stored same
reference to a self-referencing array    stored same
  ... in an object                       stored same
$a[] = &$a                               stored same
  ... in an object                       stored same
two references to one array              stored same
  ... in an object                       stored same
references inside references             stored same
  ... in an object                       stored same
shared and cyclic                        stored same
  ... in an object                       stored same
a loop of plain values (stored as serialize() writes it, or refused where it fails): same
write through p, read through q: [1,2,3] same
write through back: ["a","written"]
write through $a[0]: 2 2
borrow
