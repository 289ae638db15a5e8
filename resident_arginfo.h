/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 5e3b4470cec9bc3e8a665ca6d2c74136f34afc7c */

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

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Cache_info, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Resident_Cache_status arginfo_class_Resident_Cache_info

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Testing_crashAt, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, point, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Resident_Testing_check, 0, 0, IS_STRING, 1)
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
ZEND_METHOD(Resident_Cache, info);
ZEND_METHOD(Resident_Cache, status);
ZEND_METHOD(Resident_Testing, crashAt);
ZEND_METHOD(Resident_Testing, check);


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
	ZEND_ME(Resident_Cache, info, arginfo_class_Resident_Cache_info, ZEND_ACC_PUBLIC)
	ZEND_ME(Resident_Cache, status, arginfo_class_Resident_Cache_status, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_Resident_Testing_methods[] = {
	ZEND_ME(Resident_Testing, crashAt, arginfo_class_Resident_Testing_crashAt, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Resident_Testing, check, arginfo_class_Resident_Testing_check, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
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

static zend_class_entry *register_class_Resident_Testing(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Resident", "Testing", class_Resident_Testing_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}
