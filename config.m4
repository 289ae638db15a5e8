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
    php_resident.c api.c key_iterator.c remember.c compat.c testing.c ros.c metrics.c inspect.c class_list.c \
    value/persist.c value/materialize.c value/graph_persist.c value/class_profile.c value/graph_materialize.c value/graph_lazy.c value/date.c value/digest.c \
    store/segment.c store/alloc.c store/index.c store/lock.c store/reclaim.c \
    store/recover.c store/stats.c store/hash.c store/inspect.c store/dump.c store/keys.c,
    $ext_shared,, $RESIDENT_CFLAGS)
  PHP_ADD_BUILD_DIR([$ext_builddir/value], 1)
  PHP_ADD_BUILD_DIR([$ext_builddir/store], 1)
  PHP_ADD_INCLUDE([$ext_srcdir])
fi
