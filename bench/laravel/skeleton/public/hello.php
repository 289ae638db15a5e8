<?php echo "Hello world!";
