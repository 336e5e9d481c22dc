package io.chanledger.api.http;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a handler method whose mapping has a path variable and is looked up before all the others
 * ({@link HotPathHandlerMapping}): an endpoint taken at the rate of payments. Spring MVC finds a
 * mapping without variables by its path in a map, but one with a variable only by trying every
 * mapping the service has, each one's method, consumes and produces conditions before its path.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface HotPathMapping {
}
