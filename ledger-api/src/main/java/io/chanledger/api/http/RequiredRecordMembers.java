package io.chanledger.api.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.media.Schema;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document says which members of an answer are always there, so that clients
 * generated from it (the web pages' types) need no hand-written copy: a member of one of the
 * service's records is required unless it may be null ({@code @Nullable}, an {@code Optional},
 * or {@code @Schema(nullable = true)}) and the JSON leaves its nulls out. Where the record
 * writes nulls ({@code @JsonInclude(ALWAYS)}), a member that may be null is required and its
 * schema says it may be null. The service leaves nulls out unless told otherwise
 * ({@code spring.jackson.default-property-inclusion}).
 */
@Configuration(proxyBeanMethods = false)
class RequiredRecordMembers {

    private static final String SERVICE_PACKAGES = "io.chanledger.";

    @Bean
    ModelConverter requiredUnlessNullable(ObjectMapper json) {
        JsonInclude.Include byDefault = json.getSerializationConfig().getDefaultPropertyInclusion().getValueInclusion();
        return new Converter(byDefault == JsonInclude.Include.USE_DEFAULTS ? JsonInclude.Include.ALWAYS : byDefault);
    }

    private record Converter(JsonInclude.Include byDefault) implements ModelConverter {

        @Override
        @SuppressWarnings("rawtypes")
        public Schema resolve(AnnotatedType type, ModelConverterContext context, Iterator<ModelConverter> chain) {
            if (!chain.hasNext()) {
                return null;
            }
            Schema resolved = chain.next().resolve(type, context, chain);
            Class<?> raw = Json.mapper().constructType(type.getType()).getRawClass();
            if (resolved == null || !raw.isRecord() || !raw.getName().startsWith(SERVICE_PACKAGES)) {
                return resolved;
            }
            Schema model = resolved;
            if (resolved.get$ref() != null) {
                String name = resolved.get$ref().substring(resolved.get$ref().lastIndexOf('/') + 1);
                model = context.getDefinedModels().get(name);
            }
            if (model != null && model.getProperties() != null) {
                markRequired(model, raw);
                keepReferencedModelsObjects(model, context);
            }
            return resolved;
        }

        @SuppressWarnings({"rawtypes", "unchecked"})
        private void markRequired(Schema model, Class<?> record) {
            Map<String, Schema> properties = model.getProperties();
            List<String> required = new ArrayList<>(model.getRequired() == null ? List.of() : model.getRequired());
            JsonInclude classInclude = record.getAnnotation(JsonInclude.class);
            for (RecordComponent component : record.getRecordComponents()) {
                String name = jsonName(component);
                Schema property = properties.get(name);
                if (property == null) {
                    continue; // not written (@JsonIgnore)
                }
                boolean mayBeNull = !component.getType().isPrimitive() && (nullable(component) || nullable(property));
                JsonInclude.Include include = inclusion(component, classInclude);
                boolean nullsWritten = include == JsonInclude.Include.ALWAYS;
                boolean present = nullsWritten || (!mayBeNull && include == JsonInclude.Include.NON_NULL)
                        || (!mayBeNull && include == JsonInclude.Include.NON_ABSENT);
                if (present && !required.contains(name)) {
                    required.add(name);
                }
                if (nullsWritten && mayBeNull && property.getTypes() != null && !property.getTypes().contains("null")) {
                    property.addType("null");
                }
            }
            model.setRequired(required.isEmpty() ? null : required);
        }

        /**
         * swagger-core reads a {@code @Nullable} member whose type is a model of its own as "the
         * model may be null" and turns that model's type into {@code null}; it is an object, and
         * only the member is optional.
         */
        @SuppressWarnings("rawtypes")
        private static void keepReferencedModelsObjects(Schema model, ModelConverterContext context) {
            for (Object value : model.getProperties().values()) {
                Schema property = (Schema) value;
                String ref = property.get$ref() != null ? property.get$ref()
                        : property.getItems() != null ? property.getItems().get$ref() : null;
                Schema referenced = ref == null ? null : context.getDefinedModels().get(ref.substring(ref.lastIndexOf('/') + 1));
                if (referenced != null && referenced.getTypes() != null && referenced.getTypes().contains("null")
                        && referenced.getProperties() != null) {
                    referenced.setTypes(new LinkedHashSet<>(Set.of("object")));
                }
            }
        }

        private JsonInclude.Include inclusion(RecordComponent component, JsonInclude classInclude) {
            JsonInclude own = annotation(component, JsonInclude.class);
            if (own != null && own.value() != JsonInclude.Include.USE_DEFAULTS) {
                return own.value();
            }
            if (classInclude != null && classInclude.value() != JsonInclude.Include.USE_DEFAULTS) {
                return classInclude.value();
            }
            return byDefault;
        }

        private static String jsonName(RecordComponent component) {
            JsonProperty property = annotation(component, JsonProperty.class);
            return property == null || property.value().isEmpty() ? component.getName() : property.value();
        }

        /**
         * {@code @Nullable} of any library (on the component, its accessor or its field, or on its
         * type, as JSpecify's is), or an {@code Optional}.
         */
        private static boolean nullable(RecordComponent component) {
            return Optional.class.isAssignableFrom(component.getType())
                    || Stream.concat(annotatedElements(component).stream()
                                    .flatMap(e -> Arrays.stream(e.getAnnotations())),
                            Arrays.stream(component.getAnnotatedType().getAnnotations()))
                    .map(Annotation::annotationType).anyMatch(a -> a.getSimpleName().equals("Nullable"));
        }

        @SuppressWarnings("rawtypes")
        private static boolean nullable(Schema property) {
            return Boolean.TRUE.equals(property.getNullable())
                    || (property.getTypes() != null && property.getTypes().contains("null"));
        }

        private static <A extends Annotation> A annotation(RecordComponent component, Class<A> type) {
            return annotatedElements(component).stream().map(e -> e.getAnnotation(type))
                    .filter(Objects::nonNull).findFirst().orElse(null);
        }

        private static List<AnnotatedElement> annotatedElements(RecordComponent component) {
            List<AnnotatedElement> elements = new ArrayList<>(List.of(component, component.getAccessor()));
            try {
                elements.add(component.getDeclaringRecord().getDeclaredField(component.getName()));
            } catch (NoSuchFieldException e) {
                // every record component has its field
            }
            return elements;
        }
    }
}
