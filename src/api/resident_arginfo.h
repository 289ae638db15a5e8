/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: ec44218bda1a42d8abb1cc3e9f225d4a80031231 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Resident_Cache___construct, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Resident_Cache_pool, 0, 0, Resident\\Cache, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, name, IS_STRING, 0, "\"default\"")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, pinned, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_name, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_store, 0, 2, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, value, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

#define arginfo_class_Resident_Cache_add arginfo_class_Resident_Cache_store

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_fetch, 0, 1, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, default, IS_MIXED, 0, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_storeMultiple, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, values, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_fetchMultiple, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, keys, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_exists, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Resident_Cache_delete arginfo_class_Resident_Cache_exists

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_deleteMultiple, 0, 1, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, keys, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_clear, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Resident_Cache_increment, 0, 1, MAY_BE_LONG|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, step, IS_LONG, 0, "1")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

#define arginfo_class_Resident_Cache_decrement arginfo_class_Resident_Cache_increment

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_cas, 0, 3, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, old, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, new, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_remember, 0, 2, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, compute, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, staleTtl, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_keep, 0, 2, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, build, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, reset, IS_CALLABLE, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_Resident_Cache_keys, 0, 0, Resident\\KeyIterator, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, prefix, IS_STRING, 0, "\"\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_info, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Resident_Cache_status arginfo_class_Resident_Cache_info

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_inspect, 0, 0, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, top, IS_LONG, 0, "20")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, cells, IS_LONG, 0, "256")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Resident_Cache_dump, 0, 1, MAY_BE_LONG|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, file, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Resident_Cache_restore arginfo_class_Resident_Cache_dump

#define arginfo_class_Resident_Cache_metrics arginfo_class_Resident_Cache_name

#define arginfo_class_Resident_Cache_endOfRequest arginfo_class_Resident_Cache_clear

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_forgetStatics, 0, 0, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, class, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_Resident_RequestOverStatic___construct, 0, 0, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, publish, IS_STRING, 0, "\"request-end\"")
ZEND_END_ARG_INFO()

#define arginfo_class_Resident_KeyIterator___construct arginfo_class_Resident_Cache___construct

#define arginfo_class_Resident_KeyIterator_current arginfo_class_Resident_Cache_name

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_KeyIterator_key, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_KeyIterator_next, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Resident_KeyIterator_rewind arginfo_class_Resident_KeyIterator_next

#define arginfo_class_Resident_KeyIterator_valid arginfo_class_Resident_Cache_clear

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Testing_crashAt, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, point, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Testing_check, 0, 0, IS_STRING, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Testing_fetchLazily, 0, 2, IS_MIXED, 0)
	ZEND_ARG_OBJ_INFO(0, cache, Resident\\Cache, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Testing_isShell, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, object, IS_OBJECT, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Testing_lazyUnchanged, 0, 0, _IS_BOOL, 1)
ZEND_END_ARG_INFO()


ZEND_METHOD(Resident_Cache, __construct);
ZEND_METHOD(Resident_Cache, pool);
ZEND_METHOD(Resident_Cache, name);
ZEND_METHOD(Resident_Cache, store);
ZEND_METHOD(Resident_Cache, add);
ZEND_METHOD(Resident_Cache, fetch);
ZEND_METHOD(Resident_Cache, storeMultiple);
ZEND_METHOD(Resident_Cache, fetchMultiple);
ZEND_METHOD(Resident_Cache, exists);
ZEND_METHOD(Resident_Cache, delete);
ZEND_METHOD(Resident_Cache, deleteMultiple);
ZEND_METHOD(Resident_Cache, clear);
ZEND_METHOD(Resident_Cache, increment);
ZEND_METHOD(Resident_Cache, decrement);
ZEND_METHOD(Resident_Cache, cas);
ZEND_METHOD(Resident_Cache, remember);
ZEND_METHOD(Resident_Cache, keep);
ZEND_METHOD(Resident_Cache, keys);
ZEND_METHOD(Resident_Cache, info);
ZEND_METHOD(Resident_Cache, status);
ZEND_METHOD(Resident_Cache, inspect);
ZEND_METHOD(Resident_Cache, dump);
ZEND_METHOD(Resident_Cache, restore);
ZEND_METHOD(Resident_Cache, metrics);
ZEND_METHOD(Resident_Cache, endOfRequest);
ZEND_METHOD(Resident_Cache, forgetStatics);
ZEND_METHOD(Resident_RequestOverStatic, __construct);
ZEND_METHOD(Resident_KeyIterator, __construct);
ZEND_METHOD(Resident_KeyIterator, current);
ZEND_METHOD(Resident_KeyIterator, key);
ZEND_METHOD(Resident_KeyIterator, next);
ZEND_METHOD(Resident_KeyIterator, rewind);
ZEND_METHOD(Resident_KeyIterator, valid);
ZEND_METHOD(Resident_Testing, crashAt);
ZEND_METHOD(Resident_Testing, check);
ZEND_METHOD(Resident_Testing, fetchLazily);
ZEND_METHOD(Resident_Testing, isShell);
ZEND_METHOD(Resident_Testing, lazyUnchanged);


static const zend_function_entry class_Resident_Cache_methods[] = {
	ZEND_ME(Resident_Cache, __construct, arginfo_class_Resident_Cache___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Resident_Cache, pool, arginfo_class_Resident_Cache_pool, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Resident_Cache, name, arginfo_class_Resident_Cache_name, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, store, arginfo_class_Resident_Cache_store, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, add, arginfo_class_Resident_Cache_add, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, fetch, arginfo_class_Resident_Cache_fetch, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, storeMultiple, arginfo_class_Resident_Cache_storeMultiple, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, fetchMultiple, arginfo_class_Resident_Cache_fetchMultiple, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, exists, arginfo_class_Resident_Cache_exists, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, delete, arginfo_class_Resident_Cache_delete, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, deleteMultiple, arginfo_class_Resident_Cache_deleteMultiple, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, clear, arginfo_class_Resident_Cache_clear, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, increment, arginfo_class_Resident_Cache_increment, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, decrement, arginfo_class_Resident_Cache_decrement, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, cas, arginfo_class_Resident_Cache_cas, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, remember, arginfo_class_Resident_Cache_remember, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, keep, arginfo_class_Resident_Cache_keep, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, keys, arginfo_class_Resident_Cache_keys, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, info, arginfo_class_Resident_Cache_info, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, status, arginfo_class_Resident_Cache_status, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Resident_Cache, inspect, arginfo_class_Resident_Cache_inspect, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Resident_Cache, dump, arginfo_class_Resident_Cache_dump, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Resident_Cache, restore, arginfo_class_Resident_Cache_restore, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Resident_Cache, metrics, arginfo_class_Resident_Cache_metrics, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Resident_Cache, endOfRequest, arginfo_class_Resident_Cache_endOfRequest, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Resident_Cache, forgetStatics, arginfo_class_Resident_Cache_forgetStatics, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_Resident_RequestOverStatic_methods[] = {
	ZEND_ME(Resident_RequestOverStatic, __construct, arginfo_class_Resident_RequestOverStatic___construct, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_Resident_KeyIterator_methods[] = {
	ZEND_ME(Resident_KeyIterator, __construct, arginfo_class_Resident_KeyIterator___construct, ZEND_ACC_PRIVATE)
	ZEND_ME(Resident_KeyIterator, current, arginfo_class_Resident_KeyIterator_current, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_KeyIterator, key, arginfo_class_Resident_KeyIterator_key, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_KeyIterator, next, arginfo_class_Resident_KeyIterator_next, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_KeyIterator, rewind, arginfo_class_Resident_KeyIterator_rewind, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_KeyIterator, valid, arginfo_class_Resident_KeyIterator_valid, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_Resident_Testing_methods[] = {
	ZEND_ME(Resident_Testing, crashAt, arginfo_class_Resident_Testing_crashAt, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Resident_Testing, check, arginfo_class_Resident_Testing_check, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Resident_Testing, fetchLazily, arginfo_class_Resident_Testing_fetchLazily, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Resident_Testing, isShell, arginfo_class_Resident_Testing_isShell, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Resident_Testing, lazyUnchanged, arginfo_class_Resident_Testing_lazyUnchanged, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};

static void register_resident_symbols(int module_number)
{
	REGISTER_STRING_CONSTANT("Resident\\VERSION", PHP_RESIDENT_VERSION, CONST_PERSISTENT);
}

static zend_class_entry *register_class_Resident_Cache(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Resident", "Cache", class_Resident_Cache_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_Resident_RequestOverStatic(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Resident", "RequestOverStatic", class_Resident_RequestOverStatic_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES;

	zval property_publish_default_value;
	ZVAL_UNDEF(&property_publish_default_value);
	zend_string *property_publish_name = zend_string_init("publish", sizeof("publish") - 1, 1);
	zend_declare_typed_property(class_entry, property_publish_name, &property_publish_default_value, ZEND_ACC_PUBLIC|ZEND_ACC_READONLY, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_STRING));
	zend_string_release(property_publish_name);

	return class_entry;
}

static zend_class_entry *register_class_Resident_KeyIterator(zend_class_entry *class_entry_Iterator)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Resident", "KeyIterator", class_Resident_KeyIterator_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 1, class_entry_Iterator);

	return class_entry;
}

static zend_class_entry *register_class_Resident_Testing(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Resident", "Testing", class_Resident_Testing_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}
