<?php
// A reader of bench/eviction/run.php: requests ?op=read from URL until the
// stop file exists, then prints its hits, misses and requests as JSON.
[, $url, $stop] = $argv;
$hits = $misses = $requests = 0;
$ctx = stream_context_create(['http' => ['timeout' => 10, 'ignore_errors' => true]]);
while (!file_exists($stop)) {
    $answer = json_decode((string)@file_get_contents("$url?op=read", false, $ctx), true);
    if (is_array($answer)) {
        $hits += $answer[0];
        $misses += $answer[1];
        $requests++;
    }
}
echo json_encode([$hits, $misses, $requests]), "\n";
