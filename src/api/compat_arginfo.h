/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 82f06230781003a855403b1c2f16b3f66d3738d1 */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_OPcache_cache_store, 0, 2, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, value, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_OPcache_cache_store_array, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, values, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_OPcache_cache_fetch, 0, 1, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, default, IS_MIXED, 0, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_OPcache_cache_delete, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_OPcache_cache_delete_array, 0, 1, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, keys, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_OPcache_cache_clear, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_OPcache_cache_atomic_increment, 0, 1, MAY_BE_LONG|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, step, IS_LONG, 0, "1")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

#define arginfo_OPcache_cache_atomic_decrement arginfo_OPcache_cache_atomic_increment

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_OPcache_user_cache_info, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_UserCache_Status___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_UserCache_Status_getAvailability, 0, 0, UserCache\\Availability, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_UserCache_Status_getInfo arginfo_OPcache_user_cache_info

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_UserCache_Cache___construct, 0, 0, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, scope, IS_STRING, 0, "\"default\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_UserCache_Cache_getPool, 0, 1, UserCache\\Cache, 0)
	ZEND_ARG_TYPE_INFO(0, scope, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_UserCache_Cache_store arginfo_OPcache_cache_store

#define arginfo_class_UserCache_Cache_storeMultiple arginfo_OPcache_cache_store_array

#define arginfo_class_UserCache_Cache_fetch arginfo_OPcache_cache_fetch

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_UserCache_Cache_fetchMultiple, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, keys, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_UserCache_Cache_delete arginfo_OPcache_cache_delete

#define arginfo_class_UserCache_Cache_clear arginfo_OPcache_cache_clear

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_UserCache_Cache_getStatus, 0, 0, UserCache\\Status, 0)
ZEND_END_ARG_INFO()


ZEND_FUNCTION(OPcache_cache_store);
ZEND_FUNCTION(OPcache_cache_store_array);
ZEND_FUNCTION(OPcache_cache_fetch);
ZEND_FUNCTION(OPcache_cache_delete);
ZEND_FUNCTION(OPcache_cache_delete_array);
ZEND_FUNCTION(OPcache_cache_clear);
ZEND_FUNCTION(OPcache_cache_atomic_increment);
ZEND_FUNCTION(OPcache_cache_atomic_decrement);
ZEND_FUNCTION(OPcache_user_cache_info);
ZEND_METHOD(UserCache_Status, __construct);
ZEND_METHOD(UserCache_Status, getAvailability);
ZEND_METHOD(UserCache_Status, getInfo);
ZEND_METHOD(UserCache_Cache, __construct);
ZEND_METHOD(UserCache_Cache, getPool);
ZEND_METHOD(UserCache_Cache, store);
ZEND_METHOD(UserCache_Cache, storeMultiple);
ZEND_METHOD(UserCache_Cache, fetch);
ZEND_METHOD(UserCache_Cache, fetchMultiple);
ZEND_METHOD(UserCache_Cache, delete);
ZEND_METHOD(UserCache_Cache, clear);
ZEND_METHOD(UserCache_Cache, getStatus);


static const zend_function_entry ext_functions[] = {
	ZEND_NS_FALIAS("OPcache", cache_store, OPcache_cache_store, arginfo_OPcache_cache_store)
	ZEND_NS_FALIAS("OPcache", cache_store_array, OPcache_cache_store_array, arginfo_OPcache_cache_store_array)
	ZEND_NS_FALIAS("OPcache", cache_fetch, OPcache_cache_fetch, arginfo_OPcache_cache_fetch)
	ZEND_NS_FALIAS("OPcache", cache_delete, OPcache_cache_delete, arginfo_OPcache_cache_delete)
	ZEND_NS_FALIAS("OPcache", cache_delete_array, OPcache_cache_delete_array, arginfo_OPcache_cache_delete_array)
	ZEND_NS_FALIAS("OPcache", cache_clear, OPcache_cache_clear, arginfo_OPcache_cache_clear)
	ZEND_NS_FALIAS("OPcache", cache_atomic_increment, OPcache_cache_atomic_increment, arginfo_OPcache_cache_atomic_increment)
	ZEND_NS_FALIAS("OPcache", cache_atomic_decrement, OPcache_cache_atomic_decrement, arginfo_OPcache_cache_atomic_decrement)
	ZEND_NS_FALIAS("OPcache", user_cache_info, OPcache_user_cache_info, arginfo_OPcache_user_cache_info)
	ZEND_FE_END
};


static const zend_function_entry class_UserCache_Availability_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_UserCache_Status_methods[] = {
	ZEND_ME(UserCache_Status, __construct, arginfo_class_UserCache_Status___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(UserCache_Status, getAvailability, arginfo_class_UserCache_Status_getAvailability, ZEND_ACC_PUBLIC)
	ZEND_ME(UserCache_Status, getInfo, arginfo_class_UserCache_Status_getInfo, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_UserCache_Cache_methods[] = {
	ZEND_ME(UserCache_Cache, __construct, arginfo_class_UserCache_Cache___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(UserCache_Cache, getPool, arginfo_class_UserCache_Cache_getPool, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(UserCache_Cache, store, arginfo_class_UserCache_Cache_store, ZEND_ACC_PUBLIC)
	ZEND_ME(UserCache_Cache, storeMultiple, arginfo_class_UserCache_Cache_storeMultiple, ZEND_ACC_PUBLIC)
	ZEND_ME(UserCache_Cache, fetch, arginfo_class_UserCache_Cache_fetch, ZEND_ACC_PUBLIC)
	ZEND_ME(UserCache_Cache, fetchMultiple, arginfo_class_UserCache_Cache_fetchMultiple, ZEND_ACC_PUBLIC)
	ZEND_ME(UserCache_Cache, delete, arginfo_class_UserCache_Cache_delete, ZEND_ACC_PUBLIC)
	ZEND_ME(UserCache_Cache, clear, arginfo_class_UserCache_Cache_clear, ZEND_ACC_PUBLIC)
	ZEND_ME(UserCache_Cache, getStatus, arginfo_class_UserCache_Cache_getStatus, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_UserCache_Availability(void)
{
	zend_class_entry *class_entry = zend_register_internal_enum("UserCache\\Availability", IS_UNDEF, class_UserCache_Availability_methods);

	zend_enum_add_case_cstr(class_entry, "Available", NULL);

	zend_enum_add_case_cstr(class_entry, "Disabled", NULL);

	zend_enum_add_case_cstr(class_entry, "Unavailable", NULL);

	return class_entry;
}

static zend_class_entry *register_class_UserCache_Status(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "UserCache", "Status", class_UserCache_Status_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_UserCache_Cache(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "UserCache", "Cache", class_UserCache_Cache_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}
