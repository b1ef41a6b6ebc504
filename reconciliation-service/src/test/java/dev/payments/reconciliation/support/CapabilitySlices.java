package dev.payments.reconciliation.support;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SliceRule;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * A service sliced by capability as ArchUnit slices: {@code <base>.application.<capability>} and
 * {@code <base>.domain.<capability>} are one slice; the adapters and the configuration are the floors around them,
 * not slices. Two rules: no cycle between capabilities, and no capability using one its line in {@code mayUse} does
 * not name (a capability without a line may use nothing).
 */
public final class CapabilitySlices {

    private final Pattern capability;
    private final Map<String, List<String>> mayUse;

    private CapabilitySlices(String basePackage, Map<String, List<String>> mayUse) {
        this.capability = Pattern.compile(Pattern.quote(basePackage) + "\\.(?:application|domain)\\.([^.]+)(?:\\..*)?");
        this.mayUse = Map.copyOf(mayUse);
    }

    /** @param mayUse per capability, the capabilities it may use */
    public static CapabilitySlices of(String basePackage, Map<String, List<String>> mayUse) {
        return new CapabilitySlices(basePackage, mayUse);
    }

    /** The rules, each under the name it is reported with. */
    public Map<String, ArchRule> rules() {
        Map<String, ArchRule> rules = new LinkedHashMap<>();
        rules.put("capabilities are free of cycles", slices().assignedFrom(assignment()).should().beFreeOfCycles());
        rules.put("each capability uses only what its line in MAY_USE names", onlyAllowedUses());
        return rules;
    }

    private SliceRule onlyAllowedUses() {
        SliceRule rule = slices().assignedFrom(assignment()).should().notDependOnEachOther();
        for (Map.Entry<String, List<String>> entry : mayUse.entrySet()) {
            for (String used : entry.getValue()) {
                rule = rule.ignoreDependency(in(entry.getKey()), in(used));
            }
        }
        return rule.because("a capability may use only the capabilities its line in MAY_USE names");
    }

    private SliceAssignment assignment() {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String name = capabilityOf(javaClass);
                return name == null ? SliceIdentifier.ignore() : SliceIdentifier.of(name);
            }

            @Override
            public String getDescription() {
                return "capabilities";
            }
        };
    }

    private DescribedPredicate<JavaClass> in(String name) {
        return DescribedPredicate.describe("in " + name, javaClass -> name.equals(capabilityOf(javaClass)));
    }

    private String capabilityOf(JavaClass javaClass) {
        Matcher matcher = capability.matcher(javaClass.getPackageName());
        return matcher.matches() ? matcher.group(1) : null;
    }
}
