dnl config.m4 for the Resident extension

PHP_ARG_ENABLE([resident],
  [whether to enable Resident],
  [AS_HELP_STRING([--enable-resident], [Enable Resident, the shared-memory value cache])],
  [no])

PHP_ARG_ENABLE([resident-werror],
  [whether to build Resident with -Werror],
  [AS_HELP_STRING([--enable-resident-werror], [Resident: treat compiler warnings as errors (CI)])],
  [no], [no])

if test "$PHP_RESIDENT" != "no"; then
  AC_CHECK_FUNCS([memfd_create getrandom], [], [AC_MSG_ERROR([Resident needs memfd_create and getrandom (Linux)])])
  AC_SEARCH_LIBS([pthread_mutexattr_setrobust], [pthread], [], [AC_MSG_ERROR([Resident needs robust pthread mutexes])])

  RESIDENT_CFLAGS="-std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1"
  if test "$PHP_RESIDENT_WERROR" != "no"; then
    RESIDENT_CFLAGS="$RESIDENT_CFLAGS -Werror"
  fi

  PHP_NEW_EXTENSION(resident,
    src/module/module.c \
    src/api/cache.c src/api/arguments.c src/api/counters.c src/api/status.c src/api/keys.c src/api/remember.c src/api/keep.c src/api/worker.c \
    src/api/compat.c src/api/usercache.c src/api/usercache_locks.c src/api/usercache_status.c src/api/testing.c src/api/metrics.c src/api/inspect.c \
    src/ros/lifecycle.c src/ros/restore.c src/ros/publish.c src/ros/units.c src/ros/pool.c src/ros/deploy.c src/ros/immediate.c src/ros/code.c \
    src/cache/read.c src/cache/write.c src/cache/quiescent.c src/cache/borrowed.c \
    src/runtime/segment.c src/runtime/sapi.c src/runtime/dumps.c src/runtime/class_list.c \
    src/value/lifecycle.c src/value/persist.c src/value/graph_persist.c src/value/class_profile.c src/value/writer.c \
    src/value/errors.c src/value/materialize.c src/value/graph_lazy.c src/value/graph_materialize.c src/value/closure.c src/value/copy.c \
    src/value/class_layout.c src/value/shape_cache.c src/value/date.c src/value/digest.c src/value/digest_walk.c \
    src/store/segment.c src/store/alloc.c src/store/index.c src/store/lock.c src/store/reclaim.c \
    src/store/evict.c src/store/retire.c src/store/recover.c src/store/stats.c src/store/hash.c src/store/inspect.c src/store/dump.c src/store/keys.c,
    $ext_shared,, $RESIDENT_CFLAGS)
  PHP_ADD_BUILD_DIR([$ext_builddir/src/module], 1)
  PHP_ADD_BUILD_DIR([$ext_builddir/src/runtime], 1)
  PHP_ADD_BUILD_DIR([$ext_builddir/src/api], 1)
  PHP_ADD_BUILD_DIR([$ext_builddir/src/ros], 1)
  PHP_ADD_BUILD_DIR([$ext_builddir/src/cache], 1)
  PHP_ADD_BUILD_DIR([$ext_builddir/src/value], 1)
  PHP_ADD_BUILD_DIR([$ext_builddir/src/store], 1)
  PHP_ADD_INCLUDE([$ext_srcdir/src])
fi
