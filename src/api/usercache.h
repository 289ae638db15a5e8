/* SPDX-License-Identifier: MIT */
/*
 * UserCache\Cache, the ext-user_cache proposal's API over Resident's store
 * (docs/user-cache.md), shared by its files: usercache.c (the class, its
 * pools and values), usercache_locks.c (lock(), unlock() and the waits
 * they impose on writers), usercache_status.c (CacheStatus,
 * CachePoolStatus, CacheAvailability).
 *
 * Every UserCache pool is a namespace of keys in one Resident pool of its
 * own ("(user_cache)"): an entry's key in the store is
 * "<partition>\x1f<pool>\x1f<key>", where the partition is the php-fpm
 * pool serving the request (empty elsewhere), so that php-fpm pools do not
 * see each other's entries, as with the proposal. There is thus no limit
 * on the number of UserCache pools but memory; Resident's own 64 pools are
 * not spent on them. Locks are entries of a second, pinned, Resident pool
 * ("(user_cache_locks)") under the same keys.
 */
#ifndef RESIDENT_API_USERCACHE_H
#define RESIDENT_API_USERCACHE_H

#include "php.h"
#include "php_resident.h"
#include "cache/cache.h"

/* The proposal's key delimiter: neither pool names nor keys may hold it. */
#define UC_DELIM '\x1f'
#define UC_DELIM_NAME "0x1F"

#define UC_VALUES_POOL "\x01user_cache"
#define UC_LOCKS_POOL "\x01user_cache_locks"

/* A UserCache\Cache object: one pool of this request's registry. */
typedef struct user_cache_obj {
	zend_string *name;    /* NULL: not made by getPool() */
	zend_string *prefix;  /* its keys in the store: "<partition>\x1f<name>\x1f" */
	zend_object std;
} user_cache_obj;

static inline user_cache_obj *user_cache_of(zend_object *obj)
{
	return (user_cache_obj *)((char *)obj - XtOffsetOf(user_cache_obj, std));
}

/* What a request keeps: its pools (getPool() gives one object per name)
 * and the locks it holds, both in tables keyed by a SipHash of the name
 * under a key of the request's own (names come from users: PHP's string
 * hash could be flooded). */
typedef struct uc_node {
	zend_string *name;     /* a pool's name, or a lock's store key */
	zend_object *pool;     /* pools: the object */
	bool leased;           /* locks: taken with a lease */
	bool claimed;          /* locks: taken (or taken again) by lock(), not only by remember() */
	struct uc_node *next;  /* same hash */
} uc_node;

typedef struct user_cache_request {
	uint64_t hash_key[2];
	HashTable pools;       /* hash -> uc_node chain */
	HashTable locks;       /* hash -> uc_node chain */
	uint32_t npools;
	pid_t pid;             /* a child forked by pcntl_fork() holds none of its parent's locks */
	zend_long token;       /* this request's locks' owner token, 0 until its first lock */
} user_cache_request;

/* This request's state (made on first use); NULL after it ended. */
user_cache_request *uc_request(void);
uc_node *uc_find(user_cache_request *r, HashTable *table, const zend_string *name);
uc_node *uc_add(user_cache_request *r, HashTable *table, zend_string *name);
void uc_remove(user_cache_request *r, HashTable *table, const zend_string *name);

/* The Resident pools behind UserCache, as cache handles (false when
 * Resident is unavailable). */
bool uc_values(resident_cache_obj *out);
bool uc_locks(resident_cache_obj *out);

/* "<partition>\x1f<pool>\x1f" for a pool name. */
zend_string *uc_prefix(const zend_string *pool);

/* usercache_locks.c */

/* lock(): takes the key's lock for this request (lease: seconds it may
 * outlive the request, 0 = until unlock() or the request ends); wait: up
 * to 10 s while another holds it (remember()); by_caller: lock() took it,
 * not remember(). */
bool uc_lock(zend_string *skey, zend_long lease, bool wait, bool by_caller);
bool uc_unlock(zend_string *skey);
/* remember()'s release of the lock it took: none when its callback took
 * the key's lock with lock() meanwhile (that one is the caller's). */
void uc_unlock_unclaimed(zend_string *skey);
/* This request holds the key's lock. */
bool uc_lock_held(zend_string *skey);
/* Writers wait while another request holds a key's lock: true once none
 * does, false after 10 s. */
bool uc_wait_unlocked(zend_string *skey);
/* clear() and deletePool(): refused while another request that still
 * runs holds a lock in the pool; locks their owners left (their request
 * ended, their process died), leased or not, are dropped. */
bool uc_locks_allow_clear(const zend_string *prefix);
/* RSHUTDOWN: the request's locks go, but leased ones stay until their
 * lease ends (with no owner). */
void uc_locks_request_end(user_cache_request *r);
void uc_locks_forget(user_cache_request *r);

/* usercache_status.c */
void uc_status_register(void);
void uc_return_status(zval *return_value);
void uc_return_pool_status(user_cache_obj *u, zval *return_value);

#endif
