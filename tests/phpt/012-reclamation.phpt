--TEST--
A borrowed value stays intact while another process deletes and overwrites its key; limbo is freed when the reader's request ends
--EXTENSIONS--
pcntl
--INI--
resident.enable_cli=1
resident.zero_copy=1
resident.memory=8M
--FILE--
<?php
$c = Resident\Cache::pool('reclaim');
$value = ['payload' => str_repeat('p', 100000), 'list' => range(1, 2000)];
$c->store('k', $value);

// The reader runs in a child: in the CLI, the request is the process.
$to_reader = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$to_parent = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    $borrowed = $c->fetch('k');
    fwrite($to_parent[0], "borrowed\n");
    fgets($to_reader[1]);                 // wait until the parent overwrote everything
    $intact = $borrowed === $value && $borrowed['payload'][99999] === 'p';
    fwrite($to_parent[0], $intact ? "intact\n" : "CORRUPTED\n");
    exit(0);
}
echo fgets($to_parent[1]);
var_dump($c->delete('k'));
// Churn: new values, replaced again and again, while the reader holds on.
for ($i = 0; $i < 40; $i++) {
    $c->store('fill' . ($i % 10), str_repeat(chr(97 + $i % 26), 100000));
}
$c->store('k', 'replaced');
$s = Resident\Cache::status();
var_dump($s['limbo_bytes'] > 0);          // the old value waits for its reader
fwrite($to_reader[0], "check\n");
echo fgets($to_parent[1]);
pcntl_waitpid($pid, $status);
// The reader's request is over: its limbo can go.
$s = Resident\Cache::status();
var_dump($s['limbo_bytes'], $s['limbo_entries']);
var_dump($c->fetch('k'));
?>
--EXPECT--
borrowed
bool(true)
bool(true)
intact
int(0)
int(0)
string(8) "replaced"
