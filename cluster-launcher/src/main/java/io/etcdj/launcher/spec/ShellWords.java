package io.etcdj.launcher.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Splits a Procfile command into words the way {@code sh} would for the simple commands Procfiles
 * hold: single and double quotes, backslash escapes and {@code $VAR}/{@code ${VAR}} expansion.
 * Pipes, redirections and command substitution are not supported and are reported.
 */
final class ShellWords {
    private ShellWords() {}

    static List<String> split(String command, Map<String, String> env) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        while (i < command.length()) {
            char c = command.charAt(i);
            if (c == '\'') {
                int end = command.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated single quote");
                }
                word.append(command, i + 1, end);
                inWord = true;
                i = end + 1;
            } else if (c == '"') {
                i = readDoubleQuoted(command, i + 1, word, env);
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 >= command.length()) {
                    throw new IllegalArgumentException("trailing backslash");
                }
                word.append(command.charAt(i + 1));
                inWord = true;
                i += 2;
            } else if (c == '$') {
                i = expand(command, i, word, env);
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
                i++;
            } else if ("|;&<>`".indexOf(c) >= 0) {
                throw new IllegalArgumentException("shell operator '" + c + "' is not supported; "
                        + "write a single etcd command");
            } else {
                word.append(c);
                inWord = true;
                i++;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    private static int readDoubleQuoted(String s, int i, StringBuilder word, Map<String, String> env) {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\' && i + 1 < s.length() && "\"\\$`".indexOf(s.charAt(i + 1)) >= 0) {
                word.append(s.charAt(i + 1));
                i += 2;
            } else if (c == '$') {
                i = expand(s, i, word, env);
            } else {
                word.append(c);
                i++;
            }
        }
        throw new IllegalArgumentException("unterminated double quote");
    }

    /** Expands the variable starting at {@code s[i] == '$'}; returns the index after it. */
    private static int expand(String s, int i, StringBuilder word, Map<String, String> env) {
        int start = i + 1;
        if (start < s.length() && s.charAt(start) == '{') {
            int end = s.indexOf('}', start);
            if (end < 0) {
                throw new IllegalArgumentException("unterminated ${");
            }
            word.append(env.getOrDefault(s.substring(start + 1, end), ""));
            return end + 1;
        }
        int end = start;
        while (end < s.length() && (Character.isLetterOrDigit(s.charAt(end)) || s.charAt(end) == '_')) {
            end++;
        }
        if (end == start) {
            word.append('$');
            return start;
        }
        word.append(env.getOrDefault(s.substring(start, end), ""));
        return end;
    }
}
